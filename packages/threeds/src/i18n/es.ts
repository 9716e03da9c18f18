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
    unavailable: 'Su banco no ha podido autenticar este pago; puede realizarse sin autenticación.',
    next: 'No queda nada por hacer en esta página.',
  },
  otp: {
    title: 'Introduzca su código de un solo uso',
    intro: 'Su banco ha enviado un código de 6 dígitos por SMS al número de teléfono asociado a esta tarjeta.',
    testCode: (code) => `Modo de prueba: el código es ${code}.`,
    label: 'Código de un solo uso',
    submit: 'Confirmar',
    resend: 'Enviar un código nuevo',
    resent: 'Se ha enviado un código nuevo.',
    missing: 'Introduzca el código recibido.',
    wrong: (left) => (left === 1 ? 'Ese código no es correcto. Le queda 1 intento.' : `Ese código no es correcto. Le quedan ${left} intentos.`),
  },
  oobWaiting: {
    title: 'Apruebe este pago en la aplicación de su banco',
    body: 'Su banco ha enviado una notificación a su aplicación bancaria. Ábrala y apruebe o rechace el pago; esta página continuará por sí sola.',
    device: 'Abrir la aplicación bancaria simulada',
  },
  oobDevice: {
    title: '¿Aprobar este pago?',
    intro: 'Una tienda solicita cobrar este pago con su tarjeta.',
    approve: 'Aprobar',
    deny: 'Rechazar',
  },
  oobDone: {
    title: 'Respuesta enviada',
    approved: 'Ha aprobado el pago.',
    denied: 'Ha rechazado el pago.',
    next: 'Vuelva a la página de la tienda para continuar.',
  },
  frictionless: {
    title: 'Comprobando con su banco…',
    body: 'Su banco está confirmando este pago sin pedirle nada. Solo tardará un momento.',
  },
  rejected: {
    title: 'Su banco ha rechazado este pago',
    body: 'El emisor de su tarjeta se ha negado a autenticar este pago sin pedirle confirmación. El pago no puede realizarse con esta tarjeta.',
  },
  authUnavailable: {
    title: 'Autenticación no disponible',
    body: 'No se ha podido contactar con su banco para autenticar este pago. El pago puede realizarse sin autenticación.',
  },
  complete: {
    title: 'Autenticación completada',
    body: 'Volviendo a la tienda…',
  },
  proceed: 'Continuar',
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
