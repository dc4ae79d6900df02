import type { Language, StaffMessageKind } from '../message-kinds.ts';
import { escapeHtml } from './format.ts';

interface StaffTexts {
  subject: string;
  greeting: string;
  body: string;
  button: string;
  expiry: string;
  ignore: string;
}

/** The staff e-mails' texts (API.md 12), per language; `{name}` and `{by}` are filled in. */
const TEXTS: Record<Language, Record<StaffMessageKind, StaffTexts>> = {
  en: {
    staff_invitation: {
      subject: 'You are invited to the Innkeep desk',
      greeting: 'Hello {name},',
      body: '{by} invited you to the hotel desk. Choose your password to activate your account.',
      button: 'Choose a password',
      expiry: 'The link works once, within 72 hours.',
      ignore: 'If you did not expect this, ignore this e-mail.',
    },
    staff_password_reset: {
      subject: 'Reset your Innkeep desk password',
      greeting: 'Hello {name},',
      body: 'Someone asked to reset the password of your desk account. Choose a new one here.',
      button: 'Choose a new password',
      expiry: 'The link works once, within one hour.',
      ignore: 'If it was not you, ignore this e-mail: your password stays as it is.',
    },
  },
  es: {
    staff_invitation: {
      subject: 'Tienes una invitación al mostrador de Innkeep',
      greeting: 'Hola, {name}:',
      body: '{by} te ha invitado al mostrador del hotel. Elige tu contraseña para activar tu cuenta.',
      button: 'Elegir una contraseña',
      expiry: 'El enlace funciona una vez, durante 72 horas.',
      ignore: 'Si no lo esperabas, ignora este correo.',
    },
    staff_password_reset: {
      subject: 'Restablece tu contraseña del mostrador de Innkeep',
      greeting: 'Hola, {name}:',
      body: 'Alguien ha pedido restablecer la contraseña de tu cuenta del mostrador. Elige una nueva aquí.',
      button: 'Elegir una contraseña nueva',
      expiry: 'El enlace funciona una vez, durante una hora.',
      ignore: 'Si no has sido tú, ignora este correo: tu contraseña no cambia.',
    },
  },
  pt: {
    staff_invitation: {
      subject: 'Foi convidado para o balcão do Innkeep',
      greeting: 'Olá, {name},',
      body: '{by} convidou-o para o balcão do hotel. Escolha a sua palavra-passe para ativar a conta.',
      button: 'Escolher uma palavra-passe',
      expiry: 'A ligação funciona uma vez, durante 72 horas.',
      ignore: 'Se não esperava esta mensagem, ignore-a.',
    },
    staff_password_reset: {
      subject: 'Redefina a sua palavra-passe do balcão do Innkeep',
      greeting: 'Olá, {name},',
      body: 'Alguém pediu para redefinir a palavra-passe da sua conta do balcão. Escolha uma nova aqui.',
      button: 'Escolher uma nova palavra-passe',
      expiry: 'A ligação funciona uma vez, durante uma hora.',
      ignore: 'Se não foi você, ignore esta mensagem: a sua palavra-passe não muda.',
    },
  },
};

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

/** A staff e-mail in the person's language: subject, text and HTML parts. */
export function renderStaffMessage(m: {
  kind: StaffMessageKind;
  language: Language;
  name: string;
  link: string;
  invitedBy?: string | undefined;
}): { subject: string; text: string; html: string } {
  const t = TEXTS[m.language][m.kind];
  const values = { name: m.name, by: m.invitedBy ?? 'Innkeep' };
  const lines = [fill(t.greeting, values), fill(t.body, values), m.link, t.expiry, t.ignore];
  const html = [
    '<!doctype html>',
    `<html lang="${m.language}"><head><meta charset="utf-8"><title>${escapeHtml(t.subject)}</title></head><body>`,
    `<p>${escapeHtml(fill(t.greeting, values))}</p>`,
    `<p>${escapeHtml(fill(t.body, values))}</p>`,
    `<p><a href="${escapeHtml(m.link)}">${escapeHtml(t.button)}</a></p>`,
    `<p>${escapeHtml(t.expiry)} ${escapeHtml(t.ignore)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: t.subject, text: `${lines.join('\n\n')}\n`, html };
}
