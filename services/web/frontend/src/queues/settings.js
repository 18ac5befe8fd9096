// A queue's settings (matchmaking.proto `Queue`, as protobuf JSON) and the flat form that edits
// them. The form holds text as typed; `queueFromForm` turns it into the JSON the API takes and
// says which field is wrong, and `updateMask` names the fields an edit changed, so a PATCH
// sends only those and leaves the rest (and settings the form does not show, such as bot
// levels) as they are. The service checks everything again: this only shapes the request.

// Durations as an operator types them: "30s", "500ms", "2m", "1m30s", "1.5s". Returns seconds,
// or null when the text is not one. Protobuf JSON ("1.500s") reads the same way.
const durationPart = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;
const unitSeconds = { ms: 0.001, s: 1, m: 60, h: 3600 };

export function parseDuration(text) {
  const t = String(text ?? '').trim().replace(/\s+/g, '');
  if (t === '') return null;
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  let seconds = 0;
  durationPart.lastIndex = 0;
  while (durationPart.lastIndex < t.length) {
    const at = durationPart.lastIndex;
    const m = durationPart.exec(t);
    if (!m || m.index !== at) return null;
    seconds += Number(m[1]) * unitSeconds[m[2]];
  }
  return seconds;
}

// Seconds -> protobuf JSON Duration ("30s", "0.5s"), to the millisecond.
export function durationJson(seconds) {
  return `${Number(seconds.toFixed(3))}s`;
}

// "target=150, claim_scoring=true, preset=double_12" <-> the rules map of RuleValues. A word
// that reads as a bool or an integer is sent as one; every other value as a string (choice
// options and presets are words, so this is not ambiguous for the games there are).
export function rulesText(rules) {
  return Object.entries(rules || {})
    .map(([key, value]) => {
      if (!value || typeof value !== 'object') return `${key}=${value}`;
      if ('bool_value' in value) return `${key}=${value.bool_value}`;
      if ('int_value' in value) return `${key}=${value.int_value}`;
      return `${key}=${value.string_value ?? ''}`;
    })
    .join(', ');
}

export function parseRules(text) {
  const rules = {};
  for (const part of String(text ?? '').split(/[,\n]/)) {
    const item = part.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    if (eq <= 0) throw new FormError('rules', `"${item.slice(0, 30)}" is not name=value`);
    const key = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (value === 'true' || value === 'false') rules[key] = { bool_value: value === 'true' };
    // int64 in protobuf JSON is a string.
    else if (/^-?\d+$/.test(value)) rules[key] = { int_value: value };
    else rules[key] = { string_value: value };
  }
  return rules;
}

// A form field the page cannot turn into a request; `field` is the form's key.
export class FormError extends Error {
  constructor(field, message) {
    super(`${field.replace(/_/g, ' ')}: ${message}`);
    this.field = field;
    this.code = 'INVALID_ARGUMENT';
  }
}

export const formats = ['head_to_head', 'free_for_all', 'teams'];
export const timeoutPolicies = ['AUTO_PLAY_DEFAULT_BOT', 'FORFEIT'];

// What a new queue starts as: the CLI's defaults (a duel, the rating window 3 + 0.25/s up to 25).
export function emptyForm() {
  return {
    queue_id: '',
    display_name: '',
    game: 'muggins',
    rated: true,
    format: 'head_to_head',
    min_players: '2',
    max_players: '4',
    teams: '2',
    team_size: '2',
    bot_fill: false,
    bot_after: '10s',
    bot_kind: '',
    bots_rated: false,
    per_move: '30s',
    timeout_policy: 'AUTO_PLAY_DEFAULT_BOT',
    window_initial: '3',
    window_per_second: '0.25',
    window_max: '25',
    max_wait: '',
    rules: '',
    // Kept as they were; the form does not edit them.
    bot_levels: [],
    short_table_after: undefined,
  };
}

const durationText = (d) => (d && parseDuration(d) ? String(d) : '');

export function formFromQueue(queue) {
  const f = queue.format || {};
  const kind = formats.find((k) => f[k]) || 'head_to_head';
  const bot = queue.bot_fill || {};
  const clock = queue.clock || {};
  const window = queue.window || {};
  const policy = String(clock.timeout_policy || '');
  return {
    ...emptyForm(),
    queue_id: String(queue.name || '').replace(/^queues\//, ''),
    display_name: queue.display_name || '',
    game: queue.game || '',
    rated: !!queue.rated,
    format: kind,
    min_players: String(f.free_for_all?.min_players ?? 2),
    max_players: String(f.free_for_all?.max_players ?? 4),
    teams: String(f.teams?.teams ?? 2),
    team_size: String(f.teams?.team_size ?? 2),
    bot_fill: !!bot.enabled,
    bot_after: bot.after ? String(bot.after) : '0s',
    bot_kind: bot.bot_kind || '',
    bots_rated: !!bot.rated,
    per_move: durationText(clock.per_move),
    timeout_policy: timeoutPolicies.includes(policy) ? policy : 'AUTO_PLAY_DEFAULT_BOT',
    window_initial: String(window.initial ?? 0),
    window_per_second: String(window.per_second ?? 0),
    window_max: String(window.max ?? 0),
    max_wait: durationText(queue.max_wait),
    rules: rulesText(queue.rules),
    bot_levels: bot.levels || [],
    short_table_after: f.free_for_all?.short_table_after,
  };
}

function count(form, field) {
  const text = String(form[field]).trim();
  if (!/^\d+$/.test(text)) throw new FormError(field, 'a whole number is needed');
  return Number(text);
}

function number(form, field) {
  const value = Number(String(form[field]).trim());
  if (String(form[field]).trim() === '' || !Number.isFinite(value)) throw new FormError(field, 'a number is needed');
  return value;
}

function duration(form, field, { optional = false } = {}) {
  const text = String(form[field] ?? '').trim();
  if (text === '' && optional) return undefined;
  const seconds = parseDuration(text);
  if (seconds === null) throw new FormError(field, `"${text.slice(0, 20)}" is not a duration (e.g. 30s, 500ms, 2m)`);
  return durationJson(seconds);
}

function formatJson(form) {
  if (form.format === 'free_for_all') {
    const ffa = { min_players: count(form, 'min_players'), max_players: count(form, 'max_players') };
    if (form.short_table_after) ffa.short_table_after = form.short_table_after;
    return { free_for_all: ffa };
  }
  if (form.format === 'teams') return { teams: { teams: count(form, 'teams'), team_size: count(form, 'team_size') } };
  return { head_to_head: {} };
}

// The Queue JSON for the form, or a thrown FormError naming the field.
export function queueFromForm(form) {
  const perMove = duration(form, 'per_move', { optional: true });
  const maxWait = duration(form, 'max_wait', { optional: true });
  const queue = {
    display_name: String(form.display_name).trim(),
    game: form.game,
    rated: !!form.rated,
    format: formatJson(form),
    bot_fill: {
      enabled: !!form.bot_fill,
      after: duration(form, 'bot_after'),
      bot_kind: String(form.bot_kind).trim(),
      levels: form.bot_levels || [],
      rated: !!form.bots_rated,
    },
    // No per-move time is no clock at all (proto: unset or zero).
    clock: perMove ? { per_move: perMove, timeout_policy: form.timeout_policy } : {},
    window: { initial: number(form, 'window_initial'), per_second: number(form, 'window_per_second'), max: number(form, 'window_max') },
    rules: parseRules(form.rules),
  };
  if (maxWait) queue.max_wait = maxWait;
  return queue;
}

// The Queue fields the form can change, in the order the mask lists them.
export const editableFields = ['display_name', 'rated', 'format', 'window', 'bot_fill', 'clock', 'max_wait', 'rules'];

// "display_name,bot_fill": the top-level fields whose JSON differs between two built queues.
// Both sides are built by queueFromForm, so defaults and number formats compare alike.
export function updateMask(before, after) {
  return editableFields.filter((field) => stable(before[field]) !== stable(after[field])).join(',');
}

// JSON with object keys sorted, so key order never counts as a change.
export function stable(value) {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((key) => value[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${stable(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
