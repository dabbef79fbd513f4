// Emscripten --post-js (runs inside the module factory). Returns the raw
// WebAssembly exports of the plain entry points (IKPD_EXPORT functions in
// cpp/bindings/*.cc, see flat.h), which web/src/*.js call directly: no
// Embind invoker and no Emscripten wrapper per call. At link time Emscripten
// rewrites each quoted name to its minified export name, so every export is
// listed literally; add a line when adding an IKPD_EXPORT function.
Module["rawExports"] = function () {
  var asm = Module["asm"];
  return {
    ikpd_solve_aim: asm["ikpd_solve_aim"],
    ikpd_solve_two_bone: asm["ikpd_solve_two_bone"],
    ikpd_pd_buffer: asm["ikpd_pd_buffer"],
    ikpd_pd_gains: asm["ikpd_pd_gains"],
    ikpd_pd_stability: asm["ikpd_pd_stability"],
    ikpd_pd_scalar_new: asm["ikpd_pd_scalar_new"],
    ikpd_pd_scalar_delete: asm["ikpd_pd_scalar_delete"],
    ikpd_pd_scalar_configure: asm["ikpd_pd_scalar_configure"],
    ikpd_pd_scalar_update: asm["ikpd_pd_scalar_update"],
    ikpd_pd_scalar_at_rest: asm["ikpd_pd_scalar_at_rest"],
    ikpd_pd_scalar_energy: asm["ikpd_pd_scalar_energy"],
    ikpd_pd_scalar_read: asm["ikpd_pd_scalar_read"],
    ikpd_pd_scalar_reset: asm["ikpd_pd_scalar_reset"],
    ikpd_pd_scalar_state_at: asm["ikpd_pd_scalar_state_at"],
    ikpd_pd_scalar_time_to_settle: asm["ikpd_pd_scalar_time_to_settle"],
    ikpd_pd_scalar_blend_out: asm["ikpd_pd_scalar_blend_out"],
    ikpd_pd_scalar_track: asm["ikpd_pd_scalar_track"],
    ikpd_pd_vec3_new: asm["ikpd_pd_vec3_new"],
    ikpd_pd_vec3_delete: asm["ikpd_pd_vec3_delete"],
    ikpd_pd_vec3_configure: asm["ikpd_pd_vec3_configure"],
    ikpd_pd_vec3_update: asm["ikpd_pd_vec3_update"],
    ikpd_pd_vec3_at_rest: asm["ikpd_pd_vec3_at_rest"],
    ikpd_pd_vec3_energy: asm["ikpd_pd_vec3_energy"],
    ikpd_pd_vec3_read: asm["ikpd_pd_vec3_read"],
    ikpd_pd_vec3_reset: asm["ikpd_pd_vec3_reset"],
    ikpd_pd_vec3_state_at: asm["ikpd_pd_vec3_state_at"],
    ikpd_pd_vec3_time_to_settle: asm["ikpd_pd_vec3_time_to_settle"],
    ikpd_pd_vec3_blend_out: asm["ikpd_pd_vec3_blend_out"],
    ikpd_pd_quat_new: asm["ikpd_pd_quat_new"],
    ikpd_pd_quat_delete: asm["ikpd_pd_quat_delete"],
    ikpd_pd_quat_configure: asm["ikpd_pd_quat_configure"],
    ikpd_pd_quat_update: asm["ikpd_pd_quat_update"],
    ikpd_pd_quat_at_rest: asm["ikpd_pd_quat_at_rest"],
    ikpd_pd_quat_energy: asm["ikpd_pd_quat_energy"],
    ikpd_pd_quat_read: asm["ikpd_pd_quat_read"],
    ikpd_pd_quat_reset: asm["ikpd_pd_quat_reset"],
    ikpd_pd_quat_state_at: asm["ikpd_pd_quat_state_at"],
    ikpd_pd_quat_time_to_settle: asm["ikpd_pd_quat_time_to_settle"],
    ikpd_pd_quat_blend_out: asm["ikpd_pd_quat_blend_out"],
    ikpd_pd_quat_track: asm["ikpd_pd_quat_track"],
  };
};
