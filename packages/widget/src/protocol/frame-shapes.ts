// The schemas the frame parses with, described as plain data. In tests this runs as written; the
// widget build evaluates it and bundles only the resulting data (scripts/build.ts), not zod.

import { TokenRequestSchema } from './options.ts';
import { shapeOf } from './shape-of.ts';
import { ConnectMessageSchema, LaunchParamsSchema, ParentMessageSchema } from './to-frame.ts';

export const FRAME_SHAPES = {
  launchParams: shapeOf(LaunchParamsSchema),
  connect: shapeOf(ConnectMessageSchema),
  parentMessage: shapeOf(ParentMessageSchema),
  tokenRequest: shapeOf(TokenRequestSchema),
};
