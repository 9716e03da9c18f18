import type { Field } from '../protocol/names.ts';
import { BrandIcon } from './fields/brand-icon.tsx';
import { CountrySelect } from './fields/country-select.tsx';
import { InputField } from './fields/input-field.tsx';
import type { ControlProps } from './fields/labelled.tsx';
import { FormComponent } from './form/form-component.ts';
import { inputStyle, placeholderVariables } from './style.ts';

/** Text fields besides the card's own, with what browsers autofill into them. */
const TEXT_AUTOCOMPLETE: Partial<Record<Field, string>> = {
  'card-name': 'cc-name',
  email: 'email',
  'address-line1': 'address-line1',
  'address-line2': 'address-line2',
  'address-city': 'address-level2',
  'address-state': 'address-level1',
  'postal-code': 'postal-code',
};

export class CardForm extends FormComponent {
  render() {
    const form = this.view();
    const { messages, options, assessment, visible } = form;
    const errorOf = (field: Field) => {
      const key = assessment.fields.find((assessed) => assessed.field === field)?.error;
      return key && messages.errors[key];
    };
    const common = (field: Field) => {
      const error = errorOf(field);
      return {
        field,
        label: messages.labels[field],
        value: form.state.values[field],
        error,
        disabled: options.disabled === true,
        style: inputStyle(options.style, { focused: form.focused === field, invalid: Boolean(error) }),
        onFocus: () => form.onFocus(field),
        onBlur: () => form.onBlur(field),
        inputRef: form.register(field),
      } satisfies ControlProps;
    };
    const textField = (field: Field) =>
      visible.includes(field) && (
        <InputField
          {...common(field)}
          autocomplete={TEXT_AUTOCOMPLETE[field] ?? 'on'}
          inputMode={field === 'email' ? 'email' : 'text'}
          onInput={form.onTextInput(field)}
        />
      );
    const formError = form.state.apiErrors.form;
    const firstError = assessment.fields.find((assessed) => assessed.error)?.error;

    return (
      <form ref={this.root} class="card-form" noValidate onSubmit={(event) => event.preventDefault()} style={placeholderVariables(options.style)}>
        <InputField
          {...common('card-number')}
          autocomplete="cc-number"
          inputMode="numeric"
          placeholder={messages.placeholders.number}
          adornment={<BrandIcon brand={assessment.brand} />}
          onInput={form.onNumberInput}
        />
        <div class="row">
          <InputField
            {...common('card-expiry')}
            autocomplete="cc-exp"
            inputMode="numeric"
            placeholder={messages.placeholders.expiry}
            onInput={form.onExpiryInput}
          />
          <InputField {...common('card-cvc')} autocomplete="cc-csc" inputMode="numeric" placeholder={messages.placeholders.cvc} onInput={form.onCvcInput} />
        </div>
        {textField('card-name')}
        {textField('email')}
        {textField('address-line1')}
        {textField('address-line2')}
        {textField('address-city')}
        {textField('address-state')}
        {textField('postal-code')}
        {visible.includes('address-country') && (
          <CountrySelect
            {...common('address-country')}
            placeholder={messages.placeholders.country}
            locale={form.locale}
            onChange={(country) => form.setValue('address-country', country)}
          />
        )}
        {formError && (
          <p class="form-error" role="alert" data-testid="form-error">
            {messages.errors[formError]}
          </p>
        )}
        {/* One polite live region announces the first field error as it appears. */}
        <div class="visually-hidden" aria-live="polite" data-testid="live-region">
          {firstError ? messages.errors[firstError] : ''}
        </div>
      </form>
    );
  }
}
