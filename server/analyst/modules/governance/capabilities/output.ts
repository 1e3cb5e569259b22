import { z } from 'zod';
import { defineTool, type AnalystTool } from '../../../tools/tool';
import { fileInput, readDocument, type ReadDocument } from '../read';

/**
 * A tool with its output schema: the result type is the schema's, so the tool's result and its
 * capability's renderer cannot drift apart (docs/decisions/0086-governance-capabilities.md).
 */
export const withOutput = <S extends z.ZodType, Out extends z.ZodType>(
  output: Out,
  tool: AnalystTool<S, z.infer<Out>>,
): AnalystTool<S, z.infer<Out>> & { output: Out } => ({ ...tool, output });

/**
 * A tool that reads one attached document (the one named, else the first) and derives its whole
 * result from it: the board pack summary, a terms of reference review.
 */
export const documentTool = <Out extends z.ZodType>(
  output: Out,
  spec: { name: string; description: string; read(doc: ReadDocument): z.infer<Out> },
) =>
  withOutput(
    output,
    defineTool({
      name: spec.name,
      description: spec.description,
      input: z.object({ file: fileInput }),
      run: async (ctx, { file }) => spec.read(await readDocument(ctx, file)),
    }),
  );
