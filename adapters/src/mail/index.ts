export { consoleMailer } from './console.js';
export { smtpMailer } from './smtp.js';
