/** Profiles trade time for precision; every manifest gives settings for each one. */
export const PROFILES = ['smoke', 'quick', 'standard', 'full'] as const;
export type Profile = (typeof PROFILES)[number];

export function isProfile(s: string): s is Profile {
  return (PROFILES as readonly string[]).includes(s);
}
