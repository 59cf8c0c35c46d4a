// The same build as every service that bundles the HTTP edge: see ../http-edge/tsup.service.ts.
export { default } from '../http-edge/tsup.service';
