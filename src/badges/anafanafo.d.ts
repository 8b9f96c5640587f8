/** Types for anafanafo (CommonJS, untyped): text widths in Verdana as shields.io measures them. */
declare module 'anafanafo' {
  export default function measure(
    text: string,
    options: { font: '10px Verdana' | 'bold 10px Verdana' | '11px Verdana' | 'bold 11px Helvetica'; guess?: boolean },
  ): number;
}
