import type { ComponentChildren, CSSProperties, TargetedInputEvent } from 'preact';
import type { Field } from '../../protocol/names.ts';

export type InputFieldProps = {
  field: Field;
  label: string;
  value: string;
  error: string | undefined;
  disabled: boolean;
  style: CSSProperties;
  autocomplete: string;
  inputMode?: 'numeric' | 'email' | 'text';
  placeholder?: string;
  /** Shown inside the input's box, after it (the brand icon). */
  adornment?: ComponentChildren;
  onInput(event: TargetedInputEvent<HTMLInputElement>): void;
  onFocus(): void;
  onBlur(): void;
  inputRef(element: HTMLInputElement | null): void;
};

/** A labelled input whose error is tied to it: aria-invalid, and aria-describedby pointing at the text. */
export function InputField(props: InputFieldProps) {
  const errorId = `${props.field}-error`;
  return (
    <div class="field">
      <label for={props.field}>{props.label}</label>
      <div class="control">
        <input
          id={props.field}
          name={props.field}
          ref={props.inputRef}
          data-testid={props.field}
          aria-label={props.label}
          aria-invalid={props.error ? 'true' : 'false'}
          aria-describedby={props.error ? errorId : undefined}
          type="text"
          inputMode={props.inputMode ?? 'text'}
          autocomplete={props.autocomplete}
          autocorrect="off"
          spellcheck={false}
          placeholder={props.placeholder}
          disabled={props.disabled}
          value={props.value}
          style={props.style}
          class={props.adornment ? 'adorned' : undefined}
          onInput={props.onInput}
          onFocus={props.onFocus}
          onBlur={props.onBlur}
        />
        {props.adornment}
      </div>
      {props.error && (
        <p id={errorId} class="error" data-testid={errorId}>
          {props.error}
        </p>
      )}
    </div>
  );
}
