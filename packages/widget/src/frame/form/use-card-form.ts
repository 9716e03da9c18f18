import type { TargetedInputEvent } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type Field, MESSAGE } from '../../protocol/names.ts';
import { FRAME_SHAPES } from '../../protocol/frame-shapes.ts';
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
import { type Assessment, assess, type FormState, INITIAL_STATE, visibleFields } from './model.ts';
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

/** The card form's state and behaviour; the protocol's messages drive it, and it reports back through the bridge. */
export function useCardForm({ publishableKey, initialOptions, bridge, now = () => new Date(), languages = navigator.languages }: CardFormEnvironment) {
  const [options, setOptions] = useState(initialOptions);
  const [state, setState] = useState<FormState>(INITIAL_STATE);
  const [focused, setFocused] = useState<Field | null>(null);
  const elements = useRef<Partial<Record<Field, HTMLInputElement | HTMLSelectElement>>>({});
  const sessionId = useMemo(randomSessionId, []);
  const testMode = publishableKey.startsWith('pk_test_');
  const locale = resolveLocale(options.locale, languages);
  const messages = messagesFor(locale);
  const visible = visibleFields(options);
  const assessment = assess(state, options, { now: now(), testMode });

  // Message handlers are registered once; they read the latest render through this ref.
  const latest = useRef({ state, options, messages, visible });
  latest.current = { state, options, messages, visible };

  const focusField = (field: Field) => elements.current[field]?.focus();

  const setValue = (field: Field, value: string) =>
    setState((previous) => ({
      ...previous,
      values: { ...previous.values, [field]: value },
      // The API's verdict was about the old value.
      apiErrors: { ...previous.apiErrors, [field]: undefined, form: undefined },
    }));

  async function tokenize(id: number, request: unknown): Promise<void> {
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
    const current = latest.current;
    setState((previous) => ({ ...previous, submitted: true }));
    const blocker = assess({ ...current.state, submitted: true }, current.options, { now: now(), testMode }).fields.find((field) => !field.ready);
    if (blocker) {
      focusField(blocker.field);
      reply({ error: validationError(blocker.field, blocker.validity, current.messages.errors[blocker.error ?? 'invalid']) });
      return;
    }
    const result = await requestToken(publishableKey, tokenBody(current.state.values, current.visible, parsed.data, sessionId));
    if ('error' in result) {
      const placed = placeApiError(result.error, current.visible);
      setState((previous) => ({ ...previous, apiErrors: { [placed.field]: placed.key } }));
      if (placed.field !== 'form') focusField(placed.field);
    }
    reply(result);
  }

  useEffect(
    () =>
      bridge.listen((message) => {
        switch (message.type) {
          case MESSAGE.options:
            setOptions(message.options);
            return;
          case MESSAGE.focus:
            focusField('card-number');
            return;
          case MESSAGE.clear:
            setState(INITIAL_STATE);
            return;
          case MESSAGE.tokenize:
            void tokenize(message.id, message.request);
        }
      }),
    [bridge],
  );

  // `change` after every edit and whenever what it reports changes; `complete` when the card becomes complete.
  const detail = changeDetail(assessment, messages);
  const detailText = JSON.stringify(detail);
  const reported = useRef({ first: true, complete: false });
  useEffect(() => {
    if (reported.current.first) {
      reported.current.first = false;
      return;
    }
    bridge.send({ type: MESSAGE.event, name: 'change', detail });
    if (detail.complete && !reported.current.complete) bridge.send({ type: MESSAGE.event, name: 'complete', detail: {} });
    reported.current.complete = detail.complete;
  }, [state.values, detailText]);

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const deleting = (event: InputEvent) => (event.inputType ?? '').startsWith('delete');

  return {
    options,
    state,
    focused,
    locale,
    messages,
    visible,
    assessment,
    register: (field: Field) => (element: HTMLInputElement | HTMLSelectElement | null) => {
      elements.current[field] = element ?? undefined;
    },
    onFocus(field: Field) {
      setFocused(field);
      bridge.send({ type: MESSAGE.event, name: 'focus', detail: { field } });
    },
    onBlur(field: Field) {
      setFocused(null);
      setState((previous) => ({ ...previous, touched: { ...previous.touched, [field]: true } }));
      bridge.send({ type: MESSAGE.event, name: 'blur', detail: { field } });
    },
    setValue,
    onNumberInput(event: InputEvent) {
      const input = event.currentTarget;
      reformat(input, formatNumberInput(input.value));
      setValue('card-number', input.value);
      if (!deleting(event) && numberIsFinished(input.value, testMode)) focusField('card-expiry');
    },
    onExpiryInput(event: InputEvent) {
      const input = event.currentTarget;
      reformat(input, formatExpiry(input.value, deleting(event)));
      setValue('card-expiry', input.value);
      if (!deleting(event) && validateExpiry(input.value, now()).state === 'valid') focusField('card-cvc');
    },
    onCvcInput(event: InputEvent) {
      const input = event.currentTarget;
      reformat(input, formatCvcInput(input.value, latest.current.state.values['card-number']));
      setValue('card-cvc', input.value);
    },
    onTextInput: (field: Field) => (event: InputEvent) => setValue(field, event.currentTarget.value),
  };
}
