import { z } from 'zod';
import { UpdateProfileBody, type UserDto } from '@contract/accounts';

/**
 * The profile form: the contract's rules for names and phone; the company is the dropdown's
 * string value ("" while the user has none), turned into the payload's number on submit.
 */
export const ProfileFormSchema = z.object({
  firstName: UpdateProfileBody.shape.firstName,
  lastName: UpdateProfileBody.shape.lastName,
  phone: UpdateProfileBody.shape.phone,
  companyId: z.string(),
});
export type ProfileFormValues = z.input<typeof ProfileFormSchema>;
export type ProfileFormOutput = z.output<typeof ProfileFormSchema>;

/** The form's starting values: the signed-in user's (spec section 4: company from companyId). */
export function profileFormValues(user: UserDto): ProfileFormValues {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone ?? '',
    companyId: user.companyId === null ? '' : String(user.companyId),
  };
}

/** The PATCH body of spec section 7: the edited fields plus the current, unchangeable e-mail. */
export function profileUpdateBody(values: ProfileFormOutput, user: UserDto): UpdateProfileBody {
  return {
    firstName: values.firstName,
    lastName: values.lastName,
    phone: values.phone,
    companyId: values.companyId === '' ? null : Number(values.companyId),
    email: user.email,
  };
}
