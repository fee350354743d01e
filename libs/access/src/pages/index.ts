// The server-rendered sign-in pages: pure functions from their inputs to a complete HTML document.
export * from './page';
export * from './sign-in.page';
export * from './consent.page';
export * from './workspace-picker.page';
export * from './link.page';
export * from './preferences.page';
export * from './confirmation.page';
