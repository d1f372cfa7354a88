import { z } from 'zod';

const Id = z.string().min(1).max(64);

export const MemberParams = z.object({ member_id: Id }).strict();
export const DatasetParams = z.object({ dataset_id: Id }).strict();
export const JobParams = z.object({ job_id: Id }).strict();
export const WorkerParams = z.object({ worker_id: Id }).strict();
