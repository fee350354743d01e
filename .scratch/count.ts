import { INGEST_WRITE } from '../libs/events/src/ingest/ingest.repository';
console.log((INGEST_WRITE.match(/\$1::jsonb/g) || []).length, INGEST_WRITE.length);
console.log(INGEST_WRITE);
