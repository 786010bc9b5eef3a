export { sendMail, type Mail, type SentMail } from "./send-mail";
export { listOutbox } from "./outbox";
export { closeMailTransport, configureMail, mailSettings, type MailSettings } from "./transport";
