/** MuPDF.js, loaded with its console output silenced (see ./mupdf-quiet.ts). */
import './mupdf-quiet.js';
import * as mupdf from 'mupdf';

export { mupdf };
