import { createContext, useContext } from 'react';

/** What a page knows of the signed-in tab; its own module so pages and App.tsx do not import each other. */
export interface Session {
  /** Whether an admin token was given: admin actions are shown only then. */
  admin: boolean;
  signOut: (reason?: string) => void;
}

export const SessionContext = createContext<Session>({ admin: false, signOut: () => {} });
export const useSession = () => useContext(SessionContext);
