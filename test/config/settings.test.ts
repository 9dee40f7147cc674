import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadSettings, SettingsError } from '../../src/config/settings.js';

describe('settings', () => {
  it('default to one machine: SQLite under var/, port 8000, 50 MB uploads', () => {
    const settings = loadSettings({}, '/srv/parda');
    assert.equal(settings.databaseUrl, 'sqlite:////srv/parda/var/parda.db');
    assert.equal(settings.port, 8000);
    assert.equal(settings.host, '127.0.0.1');
    assert.equal(settings.maxUploadBytes, 50 * 1024 * 1024);
    assert.equal(settings.redisUrl, null);
    assert.equal(settings.residualCheck, true);
    assert.equal(settings.warmUpRounds, 1);
  });

  it('read PARDA_ variables', () => {
    const settings = loadSettings({
      PARDA_DATABASE_URL: 'postgres://u@h/db',
      PARDA_MAX_UPLOAD_MB: '5',
      PARDA_PORT: '9000',
      PARDA_REDIS_URL: 'redis://127.0.0.1:6379',
      PARDA_RESIDUAL_CHECK: 'OFF',
      PARDA_WARM_UP_ROUNDS: '0',
    });
    assert.equal(settings.residualCheck, false);
    assert.equal(settings.warmUpRounds, 0);
    assert.equal(settings.databaseUrl, 'postgres://u@h/db');
    assert.equal(settings.maxUploadBytes, 5 * 1024 * 1024);
    assert.equal(settings.port, 9000);
    assert.equal(settings.redisUrl, 'redis://127.0.0.1:6379');
  });

  it('serve no metrics unless PARDA_METRICS is on; a metrics token is long and has no spaces', () => {
    const off = loadSettings({});
    assert.equal(off.metrics, false);
    assert.equal(off.metricsToken, null);
    const on = loadSettings({
      PARDA_METRICS: 'on',
      PARDA_METRICS_TOKEN: ' scrape-token-0123456789 ',
    });
    assert.equal(on.metrics, true);
    assert.equal(on.metricsToken, 'scrape-token-0123456789');
    assert.throws(() => loadSettings({ PARDA_METRICS: 'yes' }), /PARDA_METRICS/);
    assert.throws(() => loadSettings({ PARDA_METRICS_TOKEN: 'short' }), /PARDA_METRICS_TOKEN/);
    assert.throws(
      () => loadSettings({ PARDA_METRICS_TOKEN: 'has a space in it, sixteen+' }),
      /PARDA_METRICS_TOKEN/,
    );
  });

  it('refuse bad values, naming the variable', () => {
    assert.throws(() => loadSettings({ PARDA_PORT: 'eighty' }), /PARDA_PORT/);
    assert.throws(() => loadSettings({ PARDA_MAX_UPLOAD_MB: '0' }), /PARDA_MAX_UPLOAD_MB/);
    assert.throws(() => loadSettings({ PARDA_DATABASE_URL: 'mysql://x' }), SettingsError);
    assert.throws(() => loadSettings({ PARDA_LOG_LEVEL: 'loud' }), /PARDA_LOG_LEVEL/);
    assert.throws(() => loadSettings({ PARDA_RESIDUAL_CHECK: 'maybe' }), /PARDA_RESIDUAL_CHECK/);
  });
});
