import type { ComponentChildren, TargetedInputEvent } from 'preact';
import { type ControlProps, controlAttributes, Labelled } from './labelled.tsx';

export type InputFieldProps = ControlProps & {
  autocomplete: string;
  inputMode?: 'numeric' | 'email' | 'text';
  placeholder?: string;
  /** Shown inside the input's box, after it (the brand icon). */
  adornment?: ComponentChildren;
  onInput(event: TargetedInputEvent<HTMLInputElement>): void;
};

/** A labelled text input. */
export function InputField(props: InputFieldProps) {
  return (
    <Labelled {...props}>
      <div class="control">
        <input
          {...controlAttributes(props)}
          type="text"
          inputMode={props.inputMode ?? 'text'}
          autocomplete={props.autocomplete}
          autocorrect="off"
          spellcheck={false}
          placeholder={props.placeholder}
          class={props.adornment ? 'adorned' : undefined}
          onInput={props.onInput}
        />
        {props.adornment}
      </div>
    </Labelled>
  );
}
