// Skipping the re-render of a part of a live page whose props did not change. The Match and
// Play pages adopt a freshly parsed view on every move, so a train or an arm that did not grow
// is still a new array: arrays are compared by their elements (one level deep), everything
// else by identity.
//
// Not preact/compat's `memo`: importing compat installs a global hook that rewrites the props
// of every element created in the app (onChange to onInput, onFocus to focusin, numbers in
// styles to pixels), which would change other pages and cost time on every element.
import { Component } from 'preact';

export function sameValue(a, b) {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function sameProps(a, b) {
  for (const key in a) if (!(key in b) || !sameValue(a[key], b[key])) return false;
  for (const key in b) if (!(key in a)) return false;
  return true;
}

// `render` must be a pure function of its props (no hooks, no context): it is skipped while
// they stay the same. The wrapper adds no element of its own.
export function pure(render) {
  class Pure extends Component {
    shouldComponentUpdate(next) {
      return !sameProps(this.props, next);
    }

    render(props) {
      return render(props);
    }
  }
  Pure.displayName = render.name;
  return Pure;
}
