import { ParentMessageSchema, ConnectMessageSchema, LaunchParamsSchema } from '../src/protocol/to-frame.ts';
import { TokenRequestSchema } from '../src/protocol/options.ts';
console.log(ParentMessageSchema.safeParse(1), ConnectMessageSchema, TokenRequestSchema, LaunchParamsSchema);
