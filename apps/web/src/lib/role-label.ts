/** The built-in roles' identifiers, as people read them. */
const BUILT_IN_ROLE_LABELS: Record<string, string> = {
  Admin: 'Admin',
  SocialMediaManager: 'Social Media Manager',
  ContentCreator: 'Content Creator',
  CustomerSupport: 'Customer Support',
};

/** A role's name as shown on screen: built-in identifiers as words; custom names unchanged. */
export function roleLabel(name: string): string {
  return Object.hasOwn(BUILT_IN_ROLE_LABELS, name) ? BUILT_IN_ROLE_LABELS[name]! : name;
}
