export * from './server-state'
export * from './snapshot'
export * from './commands'
