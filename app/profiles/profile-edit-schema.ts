import { z } from 'zod'
import { normalizeProfileName, profileNameProblem } from './profile-name'
import { ProfileSettingsSchema } from './schema'

/**
 * What an edit from the dashboard may change (the ProfileEdit contract type),
 * with size limits. The binary is not editable here: it is chosen in main's
 * own file dialog or by import.
 */
export const ProfileEditSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .max(200)
      .superRefine((n, ctx) => {
        const problem = profileNameProblem(n)
        if (problem) ctx.addIssue({ code: 'custom', message: problem })
      })
      .transform(normalizeProfileName),
    model: z.string().max(4096),
    draftModel: z.string().min(1).max(4096).nullable(),
    settings: ProfileSettingsSchema,
    extraArgs: z.array(z.string().max(4096)).max(500),
    env: z.record(
      z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
        .max(200),
      z.string().max(32_768),
    ),
    notes: z.string().max(20_000),
  })
  .partial()
  .strict()
