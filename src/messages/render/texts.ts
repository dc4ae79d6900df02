import type { Language, MessageKind } from '../message-kinds.ts';
import type { ChangeField } from './changes.ts';

/** Every sentence of the guest messages, per language (API.md 10). `{x}` are filled by the renderer. */
export interface Texts {
  locale: string;
  subject: Record<MessageKind, string>;
  intro: Record<MessageKind, string>;
  greeting: string;
  noShowIntro: string;
  labels: {
    hotel: string;
    code: string;
    checkIn: string;
    checkOut: string;
    rooms: string;
    guests: string;
    rate: string;
    total: string;
    prices: string;
    cancellation: string;
    payment: string;
    paid: string;
    dueAtHotel: string;
    changes: string;
    fee: string;
    refund: string;
    guestList: string;
    specialRequests: string;
  };
  from: string;
  until: string;
  adults: [string, string];
  children: [string, string];
  nights: [string, string];
  freeUntil: string;
  nonRefundable: string;
  penaltyFromNow: string;
  paymentStatus: Record<'unpaid' | 'paid' | 'refunded' | 'partially_refunded', string>;
  change: Record<ChangeField, string>;
  languageName: Record<Language, string>;
  invitationButton: string;
  invitationNote: string;
  calendarNote: string;
  replyNote: string;
  noReplyNote: string;
}

const en: Texts = {
  locale: 'en-GB',
  subject: {
    booking_confirmation: 'Your booking at {hotel} is confirmed ({code})',
    booking_modified: 'Your booking at {hotel} has changed ({code})',
    booking_cancelled: 'Your booking at {hotel} is cancelled ({code})',
    checkin_invitation: 'Check in online for your stay at {hotel} ({code})',
    checkin_completed: 'You are checked in at {hotel} ({code})',
  },
  intro: {
    booking_confirmation: 'Thank you for booking with {hotel}. Your reservation is confirmed.',
    booking_modified: 'Your reservation at {hotel} has been changed. Here it is as it stands now.',
    booking_cancelled: 'Your reservation at {hotel} has been cancelled.',
    checkin_invitation:
      'Your stay at {hotel} is coming up. Save time at the front desk: check in online now, it takes a few minutes.',
    checkin_completed: 'Your online check-in for {hotel} is complete. We look forward to welcoming you.',
  },
  greeting: 'Dear {name},',
  noShowIntro:
    'You did not arrive on {date}, so your reservation at {hotel} was recorded as a no-show and cancelled.',
  labels: {
    hotel: 'Hotel',
    code: 'Confirmation code',
    checkIn: 'Check-in',
    checkOut: 'Check-out',
    rooms: 'Rooms',
    guests: 'Guests',
    rate: 'Rate',
    total: 'Total',
    prices: 'Prices',
    cancellation: 'Cancellation',
    payment: 'Payment',
    paid: 'Paid',
    dueAtHotel: 'Due at the hotel',
    changes: 'What changed',
    fee: 'Cancellation fee',
    refund: 'Refund',
    guestList: 'Guests checked in',
    specialRequests: 'Special requests',
  },
  from: 'from {time}',
  until: 'until {time}',
  adults: ['{n} adult', '{n} adults'],
  children: ['{n} child', '{n} children'],
  nights: ['{n} night', '{n} nights'],
  freeUntil: 'Free cancellation until {when}; after that {penalty}.',
  nonRefundable: 'Non-refundable: cancelling costs the whole total.',
  penaltyFromNow: 'Cancelling now costs {penalty}.',
  paymentStatus: {
    unpaid: 'Not paid yet',
    paid: 'Paid',
    refunded: 'Refunded',
    partially_refunded: 'Partly refunded',
  },
  change: {
    dates: 'Dates',
    party: 'Guests',
    rooms: 'Rooms',
    roomType: 'Room',
    ratePlan: 'Rate',
    services: 'Extras',
    guest: 'Guest details',
    language: 'Language',
    specialRequests: 'Special requests',
    total: 'Total',
  },
  languageName: { en: 'English', es: 'Spanish', pt: 'Portuguese' },
  invitationButton: 'Check in online',
  invitationNote:
    'This link is personal: anyone who has it can see your check-in. Do not forward this e-mail.',
  calendarNote: 'The attached reservation.ics adds the stay to your calendar.',
  replyNote: 'Questions? Reply to this e-mail to reach {hotel}.',
  noReplyNote: 'Questions? Contact {hotel} directly; this address does not receive replies.',
};

const es: Texts = {
  locale: 'es-ES',
  subject: {
    booking_confirmation: 'Su reserva en {hotel} está confirmada ({code})',
    booking_modified: 'Su reserva en {hotel} ha cambiado ({code})',
    booking_cancelled: 'Su reserva en {hotel} está cancelada ({code})',
    checkin_invitation: 'Haga el check-in en línea para su estancia en {hotel} ({code})',
    checkin_completed: 'Check-in completado en {hotel} ({code})',
  },
  intro: {
    booking_confirmation: 'Gracias por reservar en {hotel}. Su reserva está confirmada.',
    booking_modified: 'Su reserva en {hotel} ha sido modificada. Así queda ahora.',
    booking_cancelled: 'Su reserva en {hotel} ha sido cancelada.',
    checkin_invitation:
      'Su estancia en {hotel} se acerca. Ahorre tiempo en recepción: haga ahora el check-in en línea, solo lleva unos minutos.',
    checkin_completed: 'Su check-in en línea para {hotel} está completado. Le esperamos con gusto.',
  },
  greeting: 'Estimado/a {name}:',
  noShowIntro:
    'No llegó el {date}, por lo que su reserva en {hotel} se registró como no presentado y se canceló.',
  labels: {
    hotel: 'Hotel',
    code: 'Código de confirmación',
    checkIn: 'Entrada',
    checkOut: 'Salida',
    rooms: 'Habitaciones',
    guests: 'Huéspedes',
    rate: 'Tarifa',
    total: 'Total',
    prices: 'Precios',
    cancellation: 'Cancelación',
    payment: 'Pago',
    paid: 'Pagado',
    dueAtHotel: 'A pagar en el hotel',
    changes: 'Qué ha cambiado',
    fee: 'Gastos de cancelación',
    refund: 'Reembolso',
    guestList: 'Huéspedes registrados',
    specialRequests: 'Peticiones especiales',
  },
  from: 'desde las {time}',
  until: 'hasta las {time}',
  adults: ['{n} adulto', '{n} adultos'],
  children: ['{n} niño', '{n} niños'],
  nights: ['{n} noche', '{n} noches'],
  freeUntil: 'Cancelación gratuita hasta {when}; después, {penalty}.',
  nonRefundable: 'No reembolsable: cancelar cuesta el total.',
  penaltyFromNow: 'Cancelar ahora cuesta {penalty}.',
  paymentStatus: {
    unpaid: 'Pendiente de pago',
    paid: 'Pagado',
    refunded: 'Reembolsado',
    partially_refunded: 'Reembolsado en parte',
  },
  change: {
    dates: 'Fechas',
    party: 'Huéspedes',
    rooms: 'Habitaciones',
    roomType: 'Habitación',
    ratePlan: 'Tarifa',
    services: 'Extras',
    guest: 'Datos del huésped',
    language: 'Idioma',
    specialRequests: 'Peticiones especiales',
    total: 'Total',
  },
  languageName: { en: 'inglés', es: 'español', pt: 'portugués' },
  invitationButton: 'Hacer el check-in',
  invitationNote: 'Este enlace es personal: quien lo tenga puede ver su check-in. No reenvíe este correo.',
  calendarNote: 'El archivo reservation.ics adjunto añade la estancia a su calendario.',
  replyNote: '¿Preguntas? Responda a este correo para contactar con {hotel}.',
  noReplyNote: '¿Preguntas? Contacte directamente con {hotel}; esta dirección no recibe respuestas.',
};

const pt: Texts = {
  locale: 'pt-PT',
  subject: {
    booking_confirmation: 'A sua reserva no {hotel} está confirmada ({code})',
    booking_modified: 'A sua reserva no {hotel} foi alterada ({code})',
    booking_cancelled: 'A sua reserva no {hotel} foi cancelada ({code})',
    checkin_invitation: 'Faça o check-in online para a sua estadia no {hotel} ({code})',
    checkin_completed: 'Check-in concluído no {hotel} ({code})',
  },
  intro: {
    booking_confirmation: 'Obrigado por reservar no {hotel}. A sua reserva está confirmada.',
    booking_modified: 'A sua reserva no {hotel} foi alterada. Eis como fica agora.',
    booking_cancelled: 'A sua reserva no {hotel} foi cancelada.',
    checkin_invitation:
      'A sua estadia no {hotel} está próxima. Poupe tempo na receção: faça já o check-in online, demora poucos minutos.',
    checkin_completed: 'O seu check-in online no {hotel} está concluído. Esperamos por si.',
  },
  greeting: 'Caro/a {name},',
  noShowIntro:
    'Não chegou a {date}, pelo que a sua reserva no {hotel} foi registada como não comparência e cancelada.',
  labels: {
    hotel: 'Hotel',
    code: 'Código de confirmação',
    checkIn: 'Entrada',
    checkOut: 'Saída',
    rooms: 'Quartos',
    guests: 'Hóspedes',
    rate: 'Tarifa',
    total: 'Total',
    prices: 'Preços',
    cancellation: 'Cancelamento',
    payment: 'Pagamento',
    paid: 'Pago',
    dueAtHotel: 'A pagar no hotel',
    changes: 'O que mudou',
    fee: 'Taxa de cancelamento',
    refund: 'Reembolso',
    guestList: 'Hóspedes registados',
    specialRequests: 'Pedidos especiais',
  },
  from: 'a partir das {time}',
  until: 'até às {time}',
  adults: ['{n} adulto', '{n} adultos'],
  children: ['{n} criança', '{n} crianças'],
  nights: ['{n} noite', '{n} noites'],
  freeUntil: 'Cancelamento gratuito até {when}; depois, {penalty}.',
  nonRefundable: 'Não reembolsável: cancelar custa o total.',
  penaltyFromNow: 'Cancelar agora custa {penalty}.',
  paymentStatus: {
    unpaid: 'Por pagar',
    paid: 'Pago',
    refunded: 'Reembolsado',
    partially_refunded: 'Reembolsado em parte',
  },
  change: {
    dates: 'Datas',
    party: 'Hóspedes',
    rooms: 'Quartos',
    roomType: 'Quarto',
    ratePlan: 'Tarifa',
    services: 'Extras',
    guest: 'Dados do hóspede',
    language: 'Idioma',
    specialRequests: 'Pedidos especiais',
    total: 'Total',
  },
  languageName: { en: 'inglês', es: 'espanhol', pt: 'português' },
  invitationButton: 'Fazer o check-in',
  invitationNote:
    'Esta ligação é pessoal: quem a tiver pode ver o seu check-in. Não reencaminhe este e-mail.',
  calendarNote: 'O ficheiro reservation.ics em anexo adiciona a estadia ao seu calendário.',
  replyNote: 'Dúvidas? Responda a este e-mail para contactar o {hotel}.',
  noReplyNote: 'Dúvidas? Contacte diretamente o {hotel}; este endereço não recebe respostas.',
};

export const TEXTS: Record<Language, Texts> = { en, es, pt };

/** Fills `{name}` placeholders. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (all, key: string) => (key in values ? String(values[key]) : all));
}

/** The singular or plural form for `n`. */
export function plural(forms: [string, string], n: number): string {
  return fill(n === 1 ? forms[0] : forms[1], { n });
}
