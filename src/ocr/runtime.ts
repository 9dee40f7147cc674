/**
 * ONNX Runtime, for every model Parda runs: loaded only after its telemetry is turned off
 * (telemetry-off.ts, evaluated first). Nothing else imports onnxruntime-node.
 */
import './telemetry-off.js';
import * as ort from 'onnxruntime-node';

export { ort };
