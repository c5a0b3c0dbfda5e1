/**
 * `lab.json`: what the studio's experiment form asked for (name, models, conditions, seeds,
 * duration). The Lab rebuilds the runner's plan from it (which makes "start" a resume), and a
 * fork of one of its cells takes the models from it.
 */
import { z } from 'zod';
import { labConditionSchema } from '../../../common/api/lab';

export const LAB_FILE = 'lab.json';

export const labFileSchema = z.object({
  version: z.literal(1),
  name: z.string(),
  scenarioId: z.string().nullable(),
  createdAt: z.string(),
  models: z.object({ chat: z.string(), embedding: z.string() }),
  conditions: z.array(labConditionSchema),
  baseline: z.string(),
  seeds: z.array(z.number().int()),
  steps: z.number().int().min(1),
  snapshotEverySteps: z.number().int().min(1),
  batteryPerCategory: z.number().int().min(0).max(5),
  /** Why the last attempt stopped early (cancelled, failed); null once it finished. */
  message: z.string().nullable(),
});
export type LabFile = z.infer<typeof labFileSchema>;
