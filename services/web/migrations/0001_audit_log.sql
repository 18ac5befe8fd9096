-- Every operator action taken through the web app: who, what, on which resource, when, and
-- how it ended. Append-only; the dashboard shows it newest first.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  time timestamptz NOT NULL DEFAULT now(),
  actor text NOT NULL,
  action text NOT NULL,
  target text NOT NULL,
  detail text NOT NULL,
  outcome text NOT NULL
);
