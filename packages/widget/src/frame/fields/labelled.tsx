import type { ComponentChildren, CSSProperties } from 'preact';
import type { Field } from '../../protocol/names.ts';

/** What every control of the form takes, whatever its kind. */
export type ControlProps = {
  field: Field;
  label: string;
  value: string;
  error: string | undefined;
  disabled: boolean;
  style: CSSProperties;
  onFocus(): void;
  onBlur(): void;
  inputRef(element: HTMLInputElement | HTMLSelectElement | null): void;
};

/** The attributes every control carries; its error is tied to it by aria-invalid and aria-describedby. */
export function controlAttributes(props: ControlProps) {
  return {
    id: props.field,
    name: props.field,
    ref: props.inputRef,
    'data-testid': props.field,
    'aria-label': props.label,
    'aria-invalid': props.error ? 'true' : 'false',
    'aria-describedby': props.error ? `${props.field}-error` : undefined,
    disabled: props.disabled,
    value: props.value,
    style: props.style,
    onFocus: props.onFocus,
    onBlur: props.onBlur,
  } as const;
}

/** A control under its label, with its error (when it has one) below it. */
export function Labelled(props: { field: Field; label: string; error: string | undefined; children: ComponentChildren }) {
  const errorId = `${props.field}-error`;
  return (
    <div class="field">
      <label for={props.field}>{props.label}</label>
      {props.children}
      {props.error && (
        <p id={errorId} class="error" data-testid={errorId}>
          {props.error}
        </p>
      )}
    </div>
  );
}
