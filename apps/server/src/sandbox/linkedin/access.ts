import type { Scenario } from '../kit/scenario.js';
import { roleOn, type Grant, type Member } from './state.js';

/** Roles that may post, comment and upload as the organization (w_organization_social). */
export const POSTING_ROLES = ['ADMINISTRATOR', 'CONTENT_ADMINISTRATOR'];

/** Roles that may read the organization's posts and comments (r_organization_social). */
const READING_ROLES = [...POSTING_ROLES, 'ANALYST'];

/** Organization scopes: a grant holding one came from a Community Management API app. */
export const ORGANIZATION_SCOPES = [
  'r_organization_social',
  'w_organization_social',
  'rw_organization_admin',
  'r_organization_admin',
];

/**
 * Who may act as an author or read its posts and comments (docs/networks.md#linkedin-oauth, #linkedin-comments): a member as
 * themselves, an administrator for their organizations, each with the matching scope. Reading a
 * member's own posts needs `r_member_social`, which LinkedIn grants approved apps only (here the
 * `r_member_social` knob stands for that approval).
 */
export interface Caller {
  grant: Grant;
  member: Member;
  scenario: Scenario;
}

const ORG = /^urn:li:organization:(\d+)$/;

export const personUrn = (member: Member) => `urn:li:person:${member.sub}`;

export function canWriteAs(caller: Caller, urn: string): boolean {
  const { grant, member } = caller;
  if (urn === personUrn(member)) return grant.scopes.includes('w_member_social');
  const org = ORG.exec(urn)?.[1];
  const role = org ? roleOn(member, org) : null;
  return !!role && POSTING_ROLES.includes(role) && grant.scopes.includes('w_organization_social');
}

export function canReadAs(caller: Caller, urn: string): boolean {
  const { grant, member, scenario } = caller;
  if (urn === personUrn(member))
    return grant.scopes.includes('r_member_social') || scenario.isOn('r_member_social');
  const org = ORG.exec(urn)?.[1];
  const role = org ? roleOn(member, org) : null;
  return (
    !!role &&
    READING_ROLES.includes(role) &&
    grant.scopes.some((s) => s === 'r_organization_social' || s === 'rw_organization_admin')
  );
}
