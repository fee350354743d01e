// Settings (/settings): the workspace and its settings, members, keys, connected apps, the
// heartbeat view (?range=hour|day, the week by default) and the limits. Members see it all read-only.
import { useQuery } from 'urql';
import { Page } from '../ui/page';
import { Loaded } from '../ui/state';
import { ConnectedAppsSection } from './settings/connected-apps';
import { HeartbeatSection } from './settings/heartbeat';
import { KeysSection } from './settings/keys';
import { LimitsSection } from './settings/limits';
import { MembersSection } from './settings/members';
import { SettingsForm, WORKSPACE_SETTINGS, WorkspaceFacts } from './settings/workspace-settings';
import './settings/settings.css';

export function SettingsPage() {
  const [result] = useQuery({ query: WORKSPACE_SETTINGS });
  return (
    <Page title="Settings">
      <Loaded result={result} what="Loading the workspace">
        {(answer) => (
          <>
            <WorkspaceFacts workspace={answer.workspace} />
            <SettingsForm key={answer.workspace.id} answer={answer} />
          </>
        )}
      </Loaded>
      <MembersSection />
      <KeysSection />
      <ConnectedAppsSection />
      <HeartbeatSection />
      <LimitsSection />
    </Page>
  );
}
