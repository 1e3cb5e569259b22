import { z } from 'zod';

// SCIM 2.0 provisioning (RFC 7643 resources, RFC 7644 protocol), as identity providers send it.
// Unknown attributes (enterprise extension, titles, phone numbers) are accepted and ignored.

export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const SCIM_PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** Booleans as some providers send them ("True", "false"). */
export const ScimBoolean = z.union([
  z.boolean(),
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['true', 'false']))
    .transform((v) => v === 'true'),
]);

const text = (max: number) => z.string().trim().max(max);

export const ScimName = z.looseObject({
  givenName: text(100).optional(),
  familyName: text(100).optional(),
  formatted: text(255).optional(),
});

export const ScimUserBody = z.looseObject({
  schemas: z.array(z.string().max(200)).max(20).optional(),
  externalId: text(255).optional(),
  userName: z
    .string()
    .trim()
    .toLowerCase()
    .max(255)
    .pipe(z.email('userName must be an e-mail address')),
  name: ScimName.optional(),
  displayName: text(255).optional(),
  active: ScimBoolean.optional(),
});
export type ScimUserBody = z.infer<typeof ScimUserBody>;

export const ScimPatchBody = z.looseObject({
  schemas: z.array(z.string().max(200)).max(20).optional(),
  Operations: z
    .array(
      z.looseObject({
        op: z
          .string()
          .trim()
          .toLowerCase()
          .pipe(z.enum(['add', 'replace', 'remove'])),
        path: z.string().trim().max(200).optional(),
        value: z.unknown().optional(),
      }),
    )
    .min(1, 'Operations must not be empty')
    .max(100),
});
export type ScimPatchBody = z.infer<typeof ScimPatchBody>;

export interface ScimUser {
  schemas: string[];
  id: string;
  externalId?: string;
  userName: string;
  name: { givenName: string; familyName: string; formatted: string };
  displayName: string;
  emails: Array<{ value: string; type: string; primary: boolean }>;
  active: boolean;
  meta: { resourceType: 'User'; created: string; lastModified: string; location: string };
}

export interface ScimListResponse<T> {
  schemas: string[];
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
  Resources: T[];
}

export const SCIM_GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

const ScimMember = z.looseObject({ value: z.string().trim().max(64) });

export const ScimGroupBody = z.looseObject({
  schemas: z.array(z.string().max(200)).max(20).optional(),
  displayName: z.string().trim().min(1, 'displayName is required').max(255),
  externalId: text(255).optional(),
  members: z.array(ScimMember).max(10_000).optional(),
});
export type ScimGroupBody = z.infer<typeof ScimGroupBody>;

export const ScimMembers = z.array(ScimMember).max(10_000);

export interface ScimGroup {
  schemas: string[];
  id: string;
  displayName: string;
  externalId?: string;
  members: Array<{ value: string; display: string; $ref: string }>;
  meta: { resourceType: 'Group'; created: string; lastModified: string; location: string };
}
