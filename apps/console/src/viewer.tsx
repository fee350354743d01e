// Who is signed in (the viewer query), shared by every page: roles decide which controls appear.
// A member sees everything read-only; owners and admins change; the operator manages workspaces.
import { createContext, useContext } from 'react';
import { graphql, ResultOf } from './graphql';

export const VIEWER = graphql(`
  query Viewer {
    viewer {
      operator
      email
      role
      workspace {
        id
        slug
        name
      }
      canSwitchWorkspace
    }
  }
`);

export type Viewer = ResultOf<typeof VIEWER>['viewer'];

/** Nobody yet: what the frame holds until the viewer query answers. */
export const SIGNED_OUT: Viewer = {
  operator: false,
  email: null,
  role: null,
  workspace: null,
  canSwitchWorkspace: false,
};

export const ViewerContext = createContext<Viewer>(SIGNED_OUT);

export function useViewer(): Viewer {
  return useContext(ViewerContext);
}

/** Whether the viewer may change the workspace, and if not, the sentence saying why. */
export interface ChangeRight {
  allowed: boolean;
  reason: string;
}

export function useChangeRight(): ChangeRight {
  const viewer = useViewer();
  const allowed = viewer.role === 'owner' || viewer.role === 'admin';
  return { allowed, reason: allowed ? '' : 'Only owners and admins can change this; you are a member (read-only).' };
}
