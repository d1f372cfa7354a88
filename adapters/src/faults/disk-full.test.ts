import { StorageFaultError } from '@runledger/core';
import { describe, expect, it } from 'vitest';
import { asDiskFull, diskFullAware } from './disk-full.js';

const coded = (code: string) => Object.assign(new Error(code), { code });

describe('a full disk as a storage fault', () => {
  it.each(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', 'SQLITE_IOERR_SHMSIZE', '53100'])(
    '%s becomes disk_full, the driver error its cause',
    (code) => {
      const error = coded(code);
      const fault = asDiskFull(error);
      expect(fault).toBeInstanceOf(StorageFaultError);
      expect((fault as StorageFaultError).kind).toBe('disk_full');
      expect((fault as StorageFaultError).code).toBe('unavailable');
      expect((fault as StorageFaultError).cause).toBe(error);
    },
  );

  it('leaves any other error as it is', () => {
    for (const error of [coded('EACCES'), coded('SQLITE_CONSTRAINT'), new Error('x'), null]) {
      expect(asDiskFull(error)).toBe(error);
    }
  });

  it('diskFullAware rethrows ENOSPC as the fault and passes results through', async () => {
    await expect(diskFullAware(() => Promise.reject(coded('ENOSPC')))).rejects.toBeInstanceOf(
      StorageFaultError,
    );
    await expect(diskFullAware(() => Promise.resolve(7))).resolves.toBe(7);
  });
});
