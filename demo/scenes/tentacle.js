// Placeholder until the solver lands.
export async function create(ctx) {
  const p = ctx.panel('Waiting for the solver API', 'bottom-center');
  p.append('This scene appears when its solver lands on main.');
  return {};
}
