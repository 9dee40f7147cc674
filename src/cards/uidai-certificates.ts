/**
 * The certificates trusted to sign Secure QRs: by default UIDAI's public document-signer (DS)
 * certificates shipped in assets/uidai/ (provenance in its README.md), each pinned here by
 * SHA-256 fingerprint so that a replaced file is refused rather than trusted (fail closed).
 *
 * Which set: every UIDAI DS leaf certificate we hold, not only the two of UIDAI's "Secure QR
 * Code" group. Which key signed which QRs is only partly known (UIDAI's QR specification): DS 4 is
 * verified on UIDAI's sample, real cards verify under keys published as "Offline e-KYC" (DS 05
 * of 2021, DS 06 of 2026), and DS 7, DS UIDAI 01 and DS 05 of 2024 have weak or contested
 * evidence. A missing key turns genuine cards into failures; an extra UIDAI key only means
 * UIDAI signed the bytes, which must still parse as a Secure QR. Left out: the CCA India 2022
 * root (a CA, RSA-4096: it signs certificates, not QRs) and the TEST-ONLY anon-aadhaar key,
 * whose private key is public.
 *
 * `PARDA_UIDAI_CERTS` replaces this set with `loadCertificates(paths)`; an empty list is
 * allowed and makes every check report `no_certificates`.
 */
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CertificateError,
  trustCertificate,
  type TrustedCertificate,
} from './trusted-certificate.js';

export {
  CertificateError,
  trustCertificate,
  type TrustedCertificate,
} from './trusted-certificate.js';

export interface PinnedCertificate {
  readonly file: string;
  readonly fingerprint256: string;
}

/** Oldest first; fingerprints as listed in assets/uidai/README.md, checked with OpenSSL. */
export const PINNED_UIDAI_CERTIFICATES: readonly PinnedCertificate[] = [
  // DS UNIQUE IDENTIFICATION AUTHORITY OF INDIA 03, (n)Code CA 2014, 2017-2019: offline e-KYC.
  {
    file: 'uidai_offline_publickey_26022019.cer',
    fingerprint256: '35575c63c72106e803511004f94bfda54952b2cf2184c3ce1aad61f1964c58d0',
  },
  // DS ... INDIA 4, e-Mudhra, 2017-2020: signs UIDAI's published sample (verified).
  {
    file: 'uidai_prod_cdup.cer',
    fingerprint256: 'fcf31a3f89211615ebd5d449ac33d8d381f654d2e2d15037d5cc8d4aeb72f836',
  },
  // DS ... INDIA 7, e-Mudhra, 2018-2021: UIDAI's "Secure QR Code" group.
  {
    file: 'uidai_12_06_18_cer.cer',
    fingerprint256: '49e298532243ce28e2633a7e4f403d9ca78cbfda8b3bbde70324837273ba4d31',
  },
  // DS ... INDIA 04, (n)Code CA 2014, 2019-2021: offline e-KYC.
  {
    file: 'uidai_offline_publickey_29032019.cer',
    fingerprint256: 'e0f5596d2c48e19f9cc184bccde7129e2d8987f905c73b87d1851c35c622d852',
  },
  // DS UIDAI 01, Capricorn CA 2014, 2020-2023: one third-party report of a 2021 QR.
  {
    file: 'ds_uidai_01_2020-2023.pem',
    fingerprint256: '7f7217582a4d7d711c4ca4168eb222573bdf084a7aded8f8d0c85c47a545923b',
  },
  // DS ... INDIA 05, (n)Code CA 2014, 2021-2024: real cards verify.
  {
    file: 'uidai_offline_publickey_26022021.cer',
    fingerprint256: 'e0f0f869d32efc7e80fae2223717a56dcf8b616f820b542a49e5bd5abf1c0f7d',
  },
  // DS ... India 05 (new key, same CN), (n)Code Sub-CA 2022, 2024-2026: contested.
  {
    file: 'uidai_offline_publickey_17022026.cer',
    fingerprint256: '00573c692cf04fbee113ae5fd52f2a654d361bf8ee4d06c46008906b36df8169',
  },
  // DS ... India 06, (n)Code Sub-CA 2022, 2026-2029: real 2026 QRs reported to verify.
  {
    file: 'uidai_offline_publickey_2026.cer',
    fingerprint256: 'e0304b9e61ee3640ecddae2db4b617f2e2678f57dbc2826c2f86ac5c04f277df',
  },
];

const ASSETS = path.join('assets', 'uidai');

/**
 * The shipped certificates' folder. This module runs from src/cards/ or, compiled, from
 * dist/src/cards/ (or another build folder such as dist-qr/), so walk up to the project
 * folder: the first one holding package.json and the assets, whatever the build folder is.
 */
export function uidaiAssetsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const assets = path.join(dir, ASSETS);
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(assets)) return assets;
    const parent = path.dirname(dir);
    if (parent === dir) throw new CertificateError('assets/uidai not found above this module');
    dir = parent;
  }
}

/** One certificate per file, PEM or DER: a bundle would trust more than its name says. */
function parseCertificate(bytes: Buffer, file: string): X509Certificate {
  const blocks = bytes.toString('latin1').split('-----BEGIN CERTIFICATE-----').length - 1;
  if (blocks > 1) throw new CertificateError(`${file}: holds more than one certificate`);
  try {
    return new X509Certificate(bytes);
  } catch {
    throw new CertificateError(`${file}: not a PEM or DER certificate`);
  }
}

async function loadCertificate(file: string): Promise<TrustedCertificate> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    throw new CertificateError(`${file}: cannot be read`);
  }
  return trustCertificate(parseCertificate(bytes, file), path.basename(file));
}

/**
 * Loads the given PEM or DER files (the `PARDA_UIDAI_CERTS` setting), or the shipped UIDAI set
 * when no list is given. Any unreadable file or non-RSA-2048 key rejects the whole set.
 */
export async function loadCertificates(paths?: readonly string[]): Promise<TrustedCertificate[]> {
  if (paths === undefined) return defaultUidaiCertificates();
  return Promise.all(paths.map(loadCertificate));
}

/** Loads pinned files from `dir`, refusing the set if any file's fingerprint is not its pin. */
export async function loadPinnedCertificates(
  dir: string,
  pins: readonly PinnedCertificate[],
): Promise<TrustedCertificate[]> {
  return Promise.all(
    pins.map(async (pinned) => {
      const certificate = await loadCertificate(path.join(dir, pinned.file));
      if (certificate.fingerprint256 !== pinned.fingerprint256) {
        throw new CertificateError(`${pinned.file}: fingerprint differs from the pinned one`);
      }
      return certificate;
    }),
  );
}

/** The shipped UIDAI certificates, each checked against its pinned fingerprint. */
export async function defaultUidaiCertificates(): Promise<TrustedCertificate[]> {
  return loadPinnedCertificates(uidaiAssetsDir(), PINNED_UIDAI_CERTIFICATES);
}
