/** Avatar text of a user message: first letters of first and last name (spec section 2). */
export function initialsOf(
  user: { firstName: string; lastName: string } | null | undefined,
): string {
  if (!user) return '';
  return `${user.firstName.trim().charAt(0)}${user.lastName.trim().charAt(0)}`.toUpperCase();
}
