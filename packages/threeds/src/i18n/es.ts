import type { Messages } from './en.ts';

export const es: Messages = {
  service: 'Pago seguro con Payframe',
  footer: 'Payframe ofrece esta página en nombre del comercio. Los datos de tu tarjeta no se muestran al comercio.',
  testMode: {
    title: 'Modo de prueba',
    body: 'Esta es una verificación 3-D Secure simulada. No se cobra ninguna tarjeta real ni se contacta con ningún banco.',
  },
  summary: {
    label: 'Detalles del pago',
    merchant: 'Comercio',
    amount: 'Importe',
    card: 'Tarjeta',
    cardEnding: 'que termina en',
    description: 'Descripción',
  },
  unknownBrand: 'Tarjeta',
  challenge: {
    title: 'Confirma tu pago',
    intro: 'El emisor de tu tarjeta te pide que confirmes este pago antes de continuar.',
    choose: 'Elige un resultado para esta autenticación.',
    authenticate: 'Completar la autenticación',
    fail: 'Hacer fallar la autenticación',
  },
  completed: {
    title: 'Autenticación ya completada',
    succeeded: 'Este pago se autenticó correctamente.',
    failed: 'La autenticación de este pago ha fallado.',
    next: 'No queda nada por hacer en esta página.',
  },
  notNeeded: {
    title: 'No se necesita autenticación',
    body: 'Tu tarjeta no necesita autenticación 3-D Secure para este pago.',
  },
  unavailable: {
    title: 'Este pago ya no está disponible',
    body: 'El pago ha caducado, se ha capturado, reembolsado o cancelado, así que ya no se puede autenticar aquí.',
  },
  notFound: {
    title: 'Página no encontrada',
    body: 'Este enlace de autenticación no es válido. Comprueba que has abierto el enlace completo o vuelve a la tienda y empieza el pago de nuevo.',
  },
  error: {
    title: 'Algo ha salido mal',
    badRequest: 'No se pudo entender esta solicitud. Vuelve a la tienda e inténtalo de nuevo.',
    methodNotAllowed: 'Esta página no se puede usar así. Abre el enlace que recibiste y elige una opción.',
    unavailable: 'El servicio de pago está ocupado. Espera un momento y vuelve a cargar esta página.',
  },
  returnTo: (merchant) => `Volver a ${merchant}`,
};
