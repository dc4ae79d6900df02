import { Type } from '@sinclair/typebox';

/** `/media/<hash>-<width>.<jpg|webp>`: one served size of a catalogue photo (API.md 9.1). */
export const MediaParams = Type.Object({
  name: Type.String({
    maxLength: 64,
    description: 'the `<hash>-<width>.<ext>` of a photo’s `src` or `srcset`',
  }),
});
