/**
 * Figures as Vega-Lite specs, rendered to SVG headlessly: vega-lite compiles the spec to Vega, and Vega's
 * SVG string renderer draws it without a canvas. Both libraries are loaded on the first figure, so the
 * commands that draw nothing never pay for them. Every figure is written as a pair, the SVG and its spec
 * (`.vl.json`), so that a reader can restyle or re-plot it with any Vega-Lite tool.
 */
import type { TopLevelSpec } from 'vega-lite';

export type PlotSpec = TopLevelSpec;

/** The Vega-Lite schema every spec names (the major version the renderer speaks). */
export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** Renders a Vega-Lite spec to standalone SVG text. */
export async function renderSvg(spec: PlotSpec): Promise<string> {
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  // Vega tags the data objects it is given; render a copy so the caller's spec stays plain JSON.
  const copy = JSON.parse(JSON.stringify(spec)) as PlotSpec;
  const view = new vega.View(vega.parse(vegaLite.compile(copy).spec), { renderer: 'none' });
  try {
    return `${await view.toSVG()}\n`;
  } finally {
    view.finalize();
  }
}

/** The two files of a figure: `<stem>.svg` and `<stem>.vl.json`, as file name → text. */
export async function figureFiles(stem: string, spec: PlotSpec): Promise<Record<string, string>> {
  return {
    [`${stem}.svg`]: await renderSvg(spec),
    [`${stem}.vl.json`]: `${JSON.stringify(spec, null, 2)}\n`,
  };
}

/** `dir/chart.svg` → `dir/chart` (the stem of a figure given by its SVG path). */
export function figureStem(svgPath: string): string {
  return svgPath.replace(/\.svg$/i, '');
}
