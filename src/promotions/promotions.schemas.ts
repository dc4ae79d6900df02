import { type Static, Type } from '@sinclair/typebox';
import { PromotionCode, promotionFields } from '../catalog/promotion.schema.ts';
import { HotelId } from '../operator-access/operator.schemas.ts';

/** The operator's promotion codes (API.md 14.1): wire formats. */

export const PromotionParams = Type.Object({ hotel: HotelId, code: PromotionCode });

/** `PUT …/promotions/{code}`: the promotion; `code`, if given, must be the path's (any case). */
export const PromotionBody = Type.Object(
  { code: Type.Optional(PromotionCode), ...promotionFields },
  { additionalProperties: false },
);
export type PromotionBody = Static<typeof PromotionBody>;

export const PromotionView = Type.Object(
  {
    code: Type.String({ description: 'upper-cased', examples: ['SPRING-25'] }),
    ...promotionFields,
    source: Type.Union([Type.Literal('catalog'), Type.Literal('api')], {
      description: 'where it comes from: the catalogue file, or saved through this API (which wins)',
    }),
    uses: Type.Integer({ description: 'confirmed reservations holding it now' }),
  },
  { description: 'A promotion code (docs/api.md §13.1)' },
);
export type PromotionView = Static<typeof PromotionView>;

export const PromotionList = Type.Object({ data: Type.Array(PromotionView) });
export type PromotionList = Static<typeof PromotionList>;
