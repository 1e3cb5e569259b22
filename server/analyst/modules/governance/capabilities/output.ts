import type { z } from 'zod';
import type { AnalystTool } from '../../../tools/tool';

/**
 * A tool with its output schema: the result type is the schema's, so the tool's result and its
 * capability's renderer cannot drift apart (docs/decisions/0086-governance-capabilities.md).
 */
export const withOutput = <S extends z.ZodType, Out extends z.ZodType>(
  output: Out,
  tool: AnalystTool<S, z.infer<Out>>,
): AnalystTool<S, z.infer<Out>> & { output: Out } => ({ ...tool, output });
