/** MuPDF.js, loaded with its console output silenced (see ./mupdf-module.ts). */
import './mupdf-module.js';
import * as mupdf from 'mupdf';

export { mupdf };
