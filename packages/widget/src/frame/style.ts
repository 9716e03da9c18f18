import type { CSSProperties } from 'preact';
import type { Style, StyleDeclarations } from '../protocol/options.ts';

/**
 * The merchant's declarations for one input in its current state, applied through the CSSOM (which
 * a `style-src 'self'` policy allows). Text never goes below 16px: smaller makes phones zoom in.
 */
export function inputStyle(style: Style | undefined, state: { focused: boolean; invalid: boolean }): CSSProperties {
  const merged: StyleDeclarations = {
    ...style?.base,
    ...(state.focused ? style?.focus : undefined),
    ...(state.invalid ? style?.invalid : undefined),
  };
  return merged.fontSize ? { ...merged, fontSize: `max(16px, ${merged.fontSize})` } : merged;
}

/** `::placeholder` cannot take inline styles, so its declarations become custom properties read by frame.css. */
export function placeholderVariables(style: Style | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(style?.placeholder ?? {}).map(([property, value]) => [
      `--pf-placeholder-${property.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`,
      value,
    ]),
  );
}
