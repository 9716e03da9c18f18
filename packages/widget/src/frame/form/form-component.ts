import type { Locale } from '@payframe/contract/locales';
import { Component, createRef, type RefObject, type TargetedInputEvent } from 'preact';
import { FRAME_SHAPES } from '../../protocol/frame-shapes.ts';
import { type Field, MESSAGE } from '../../protocol/names.ts';
import type { CardOptions } from '../../protocol/options.ts';
import { check } from '../../protocol/shape.ts';
import type { ChangeDetail, TokenResult } from '../../protocol/to-page.ts';
import type { Bridge } from '../bridge.ts';
import { formatExpiry } from '../card/format.ts';
import { numberIsFinished, validateExpiry } from '../card/validate.ts';
import type { Messages } from '../i18n/en.ts';
import { messagesFor, resolveLocale } from '../i18n/locale.ts';
import { placeApiError, validationError } from '../tokens/errors.ts';
import { requestToken } from '../tokens/request-token.ts';
import { tokenBody } from '../tokens/token-body.ts';
import { type Assessment, assess, type FormState, INITIAL_STATE, type Values, visibleFields } from './model.ts';
import { formatCvcInput, formatNumberInput, reformat } from './reformat.ts';

export type CardFormEnvironment = {
  publishableKey: string;
  initialOptions: CardOptions;
  bridge: Bridge;
  /** The clock for past-expiry checks, and the browser's languages for the default locale; tests pass their own. */
  now?: () => Date;
  languages?: readonly string[];
};

type InputEvent = TargetedInputEvent<HTMLInputElement>;

type ComponentState = { options: CardOptions; form: FormState; focused: Field | null };

function randomSessionId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function changeDetail(assessment: Assessment, messages: Messages): ChangeDetail {
  const first = assessment.fields.find((field) => field.error);
  return {
    complete: assessment.complete,
    empty: assessment.empty,
    brand: assessment.brand,
    ...(first?.error ? { error: { field: first.field, message: messages.errors[first.error] } } : {}),
  };
}

const deleting = (event: InputEvent) => (event.inputType ?? '').startsWith('delete');

/**
 * The card form's state and behaviour; the protocol's messages drive it, and it reports back through
 * the bridge. A class component, so the frame needs Preact's core only, not its hooks. Members are
 * declared and set in the constructor: class fields would cost the es2020 build its helpers.
 */
export abstract class FormComponent extends Component<CardFormEnvironment, ComponentState> {
  /** The form element, for its height; the subclass's render attaches it. */
  declare protected root: RefObject<HTMLFormElement | null>;
  declare private elements: Partial<Record<Field, HTMLInputElement | HTMLSelectElement>>;
  declare private sessionId: string;
  declare private stop: () => void;
  /** What the last render showed, and what `change` last reported (at first, the form as mounted). */
  declare private rendered: { locale: Locale; messages: Messages; visible: Field[]; detail: ChangeDetail };
  declare private reported: { values: Values; detail: string; complete: boolean } | undefined;

  constructor(props: CardFormEnvironment) {
    super(props);
    this.state = { options: props.initialOptions, form: INITIAL_STATE, focused: null };
    this.root = createRef();
    this.elements = {};
    this.sessionId = randomSessionId();
  }

  private now(): Date {
    return this.props.now?.() ?? new Date();
  }

  private testMode(): boolean {
    return this.props.publishableKey.startsWith('pk_test_');
  }

  private update(change: (previous: FormState) => FormState): void {
    this.setState((previous) => ({ form: change(previous.form) }));
  }

  private focusField(field: Field): void {
    this.elements[field]?.focus();
  }

  private setValue(field: Field, value: string): void {
    this.update((previous) => ({
      ...previous,
      values: { ...previous.values, [field]: value },
      // The API's verdict was about the old value.
      apiErrors: { ...previous.apiErrors, [field]: undefined, form: undefined },
    }));
  }

  override componentDidMount(): void {
    const { bridge } = this.props;
    // The loader sizes the iframe to the form: first before `ready`, then on every change of height.
    const element = this.root.current;
    const postHeight = () => element && bridge.send({ type: MESSAGE.resize, height: Math.ceil(element.getBoundingClientRect().height) });
    postHeight();
    bridge.send({ type: MESSAGE.ready });
    const observer = new ResizeObserver(postHeight);
    if (element) observer.observe(element);
    const unlisten = bridge.listen((message) => {
      switch (message.type) {
        case MESSAGE.options:
          this.setState({ options: message.options });
          return;
        case MESSAGE.focus:
          this.focusField('card-number');
          return;
        case MESSAGE.clear:
          this.setState({ form: INITIAL_STATE });
          return;
        case MESSAGE.tokenize:
          void this.tokenize(message.id, message.request);
      }
    });
    this.stop = () => {
      observer.disconnect();
      unlisten();
    };
    this.componentDidUpdate();
  }

  override componentWillUnmount(): void {
    this.stop();
  }

  /** `change` after every edit and whenever what it reports changes; `complete` when the card becomes complete. */
  override componentDidUpdate(): void {
    const { locale, detail } = this.rendered;
    document.documentElement.lang = locale;
    const { values } = this.state.form;
    const text = JSON.stringify(detail);
    const last = this.reported;
    this.reported = { values, detail: text, complete: last ? detail.complete : false };
    if (!last || (last.values === values && last.detail === text)) return;
    this.props.bridge.send({ type: MESSAGE.event, name: 'change', detail });
    if (detail.complete && !last.complete) this.props.bridge.send({ type: MESSAGE.event, name: 'complete', detail: {} });
  }

  private async tokenize(id: number, request: unknown): Promise<void> {
    const { bridge, publishableKey } = this.props;
    const reply = (result: TokenResult) => {
      if ('error' in result) bridge.send({ type: MESSAGE.event, name: 'error', detail: { error: result.error } });
      bridge.send({ type: MESSAGE.token, id, result });
    };
    const parsed = check(FRAME_SHAPES.tokenRequest, request);
    if (!parsed.success) {
      const parameter = parsed.issue.path.join('.');
      const message = `createToken(): ${parameter || 'the request'} ${parsed.issue.message}`;
      reply({ error: { type: 'invalid_request_error', message, error: { code: 'PARAMETER_INVALID', message, parameter } } });
      return;
    }
    const { options, form } = this.state;
    const { messages, visible } = this.rendered;
    this.update((previous) => ({ ...previous, submitted: true }));
    const blocker = assess({ ...form, submitted: true }, options, { now: this.now(), testMode: this.testMode() }).fields.find((field) => !field.ready);
    if (blocker) {
      this.focusField(blocker.field);
      reply({ error: validationError(blocker.field, form.values[blocker.field], blocker.validity, messages.errors[blocker.error ?? 'invalid']) });
      return;
    }
    const result = await requestToken(publishableKey, tokenBody(form.values, visible, parsed.data, this.sessionId));
    if ('error' in result) {
      const placed = placeApiError(result.error, visible);
      this.update((previous) => ({ ...previous, apiErrors: { [placed.field]: placed.key } }));
      if (placed.field !== 'form') this.focusField(placed.field);
    }
    reply(result);
  }

  /** What the subclass renders: the current state assessed, in the shopper's language, and the handlers. */
  protected view() {
    const { options, form: state, focused } = this.state;
    const testMode = this.testMode();
    const locale = resolveLocale(options.locale, this.props.languages ?? navigator.languages);
    const messages = messagesFor(locale);
    const visible = visibleFields(options);
    const assessment = assess(state, options, { now: this.now(), testMode });
    this.rendered = { locale, messages, visible, detail: changeDetail(assessment, messages) };
    return {
      options,
      state,
      focused,
      locale,
      messages,
      visible,
      assessment,
      register: (field: Field) => (element: HTMLInputElement | HTMLSelectElement | null) => {
        this.elements[field] = element ?? undefined;
      },
      onFocus: (field: Field) => {
        this.setState({ focused: field });
        this.props.bridge.send({ type: MESSAGE.event, name: 'focus', detail: { field } });
      },
      onBlur: (field: Field) => {
        this.setState({ focused: null });
        this.update((previous) => ({ ...previous, touched: { ...previous.touched, [field]: true } }));
        this.props.bridge.send({ type: MESSAGE.event, name: 'blur', detail: { field } });
      },
      setValue: (field: Field, value: string) => this.setValue(field, value),
      onNumberInput: (event: InputEvent) => {
        const input = event.currentTarget;
        reformat(input, formatNumberInput(input.value));
        this.setValue('card-number', input.value);
        if (!deleting(event) && numberIsFinished(input.value, testMode)) this.focusField('card-expiry');
      },
      onExpiryInput: (event: InputEvent) => {
        const input = event.currentTarget;
        reformat(input, formatExpiry(input.value, deleting(event)));
        this.setValue('card-expiry', input.value);
        if (!deleting(event) && validateExpiry(input.value, this.now()).state === 'valid') this.focusField('card-cvc');
      },
      onCvcInput: (event: InputEvent) => {
        const input = event.currentTarget;
        reformat(input, formatCvcInput(input.value, this.state.form.values['card-number']));
        this.setValue('card-cvc', input.value);
      },
      onTextInput: (field: Field) => (event: InputEvent) => this.setValue(field, event.currentTarget.value),
    };
  }
}
