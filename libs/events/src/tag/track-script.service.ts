// interface.md "Website tag": Nest's handle on track.js for the public doors controller; the work is in track-script.ts.
import { Injectable } from '@nestjs/common';
import { loadTrackScript } from './track-script';

export { TRACK_SCRIPT_HEADERS } from './track-script';

@Injectable()
export class TrackScript {
  async render(endpoint: string): Promise<string> {
    return (await loadTrackScript())(endpoint);
  }
}
