import { z } from 'zod';

export { SUPPORTED_CHART_TYPES } from './constants';

/** Chart object of spec section 3: config.type, when present, takes precedence over chart_type. */
export const ChartObject = z.object({
  title: z.string().max(500).default('Chart'),
  chart_type: z.string().max(50).optional(),
  config: z
    .object({
      type: z.string().max(50).optional(),
      data: z.unknown().optional(),
      options: z.record(z.string(), z.unknown()).optional(),
    })
    .passthrough(),
});
export type ChartObject = z.infer<typeof ChartObject>;

/** Save-chart payload handed to a handler. */
export interface SaveChartPayload {
  title: string;
  /** base64 PNG data string */
  imageData: string;
}
