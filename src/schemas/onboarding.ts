/** @fileoverview Device onboarding: issueDeviceToken, initLinkCode, exchangeLinkCode. */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Uuid } from './common.js';

export const DeviceTokenIssueRequest = Type.Object(
  {
    device_name: Type.Optional(Type.String({ maxLength: 128 })),
    platform: Type.Optional(Type.String({ maxLength: 32 })),
    user_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type DeviceTokenIssueRequest = Static<typeof DeviceTokenIssueRequest>;

export const DeviceTokenIssueResponse = Type.Object({
  device_id: Uuid,
  token: Type.String(),
  created_at: Type.Optional(DateTime),
});
export type DeviceTokenIssueResponse = Static<typeof DeviceTokenIssueResponse>;

export const LinkCodeInitResponse = Type.Object({ link_code: Type.String(), expires_at: DateTime });
export type LinkCodeInitResponse = Static<typeof LinkCodeInitResponse>;

export const LinkCodeExchangeRequest = Type.Object(
  {
    link_code: Type.String({ minLength: 1, maxLength: 64 }),
    request_id: Type.String({ minLength: 1, maxLength: 128 }),
    device_name: Type.Optional(Type.String({ maxLength: 128 })),
    platform: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { additionalProperties: false },
);
export type LinkCodeExchangeRequest = Static<typeof LinkCodeExchangeRequest>;

export const LinkCodeExchangeResponse = Type.Object({
  token: Type.String(),
  device_id: Uuid,
  user_id: Uuid,
  account: Type.Optional(
    Type.Object(
      {
        email: Type.Union([Type.String(), Type.Null()]),
        display_name: Type.Union([Type.String(), Type.Null()]),
      },
      {
        description:
          'Beyond the interface: the account the device joined, as the linking CLI names it ("linked to …"), so a code of someone ' +
          "else's account shows at once. Only the exchange answers it: a device token reads nothing of its account.",
      },
    ),
  ),
});
export type LinkCodeExchangeResponse = Static<typeof LinkCodeExchangeResponse>;
