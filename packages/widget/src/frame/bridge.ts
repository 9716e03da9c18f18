import { FRAME_SHAPES } from '../protocol/frame-shapes.ts';
import { check } from '../protocol/shape.ts';
import type { ParentMessage } from '../protocol/to-frame.ts';
import type { FrameMessage } from '../protocol/to-page.ts';

/** The frame's side of the channel: what it may send, and the parsed messages it receives. */
export type Bridge = {
  send(message: FrameMessage): void;
  listen(handler: (message: ParentMessage) => void): () => void;
};

export function portBridge(port: MessagePort): Bridge {
  return {
    send: (message) => port.postMessage(message),
    listen(handler) {
      const receive = (event: MessageEvent) => {
        const parsed = check(FRAME_SHAPES.parentMessage, event.data);
        if (parsed.success) handler(parsed.data);
      };
      port.addEventListener('message', receive);
      port.start();
      return () => port.removeEventListener('message', receive);
    },
  };
}
