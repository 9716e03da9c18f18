import { fireEvent } from '@testing-library/preact';
import { act } from 'preact/test-utils';
import { vi } from 'vitest';
import type { ParentMessage } from '../protocol/to-frame.ts';
import { type FrameMessage, FrameMessageSchema } from '../protocol/to-page.ts';
import type { Bridge } from './bridge.ts';

/** A bridge whose sent messages are kept, each checked against the protocol's schema, and which can deliver messages. */
export function fakeBridge() {
  const sent: FrameMessage[] = [];
  let handler: ((message: ParentMessage) => void) | undefined;
  const bridge: Bridge = {
    send(message) {
      sent.push(FrameMessageSchema.parse(message));
    },
    listen(listener) {
      handler = listener;
      return () => {
        handler = undefined;
      };
    },
  };
  return {
    bridge,
    sent,
    async deliver(message: ParentMessage) {
      await act(async () => handler?.(message));
    },
    /** Delivers a tokenize message and resolves with the frame's answer to it, once the API call settles. */
    async tokenize(id: number, request: unknown) {
      await act(async () => handler?.({ type: 'payframe:tokenize', id, request }));
      return vi.waitFor(() => {
        const reply = sent.find((message) => message.type === 'payframe:token' && message.id === id);
        if (!reply) throw new Error(`no answer to tokenize ${id} yet`);
        return reply;
      });
    },
    events(name: string) {
      return sent.flatMap((message) => (message.type === 'payframe:event' && message.name === name ? [message.detail] : []));
    },
  };
}

/** Types into an input the way the browser reports it: the new value, then an input event with its inputType. */
export function type(input: HTMLElement, value: string, inputType = 'insertText'): void {
  (input as HTMLInputElement).value = value;
  (input as HTMLInputElement).setSelectionRange(value.length, value.length);
  fireEvent.input(input, { inputType });
}
