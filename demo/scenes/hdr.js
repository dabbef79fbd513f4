// HDR output: neon tubes and glowing orbs far above SDR white, the three
// user settings (paper white, peak, saturation), the active tone curve,
// calibration patches and an SDR | HDR split view.
import * as THREE from 'three/webgpu';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { displayIsHDR } from '../output.js';
import { setupStage, standard } from '../lib/stage.js';

export async function create(ctx) {
  const { scene, camera, controls, output, ikpd } = ctx;
  setupStage(ctx, { ground: false, fog: false });
  scene.background = new THREE.Color(0x07080b);
  camera.position.set(0, 1.6, 6.2);
  controls.target.set(0, 1.1, 0);

  // Glossy dark floor so the lights reflect.
  const floor = new THREE.Mesh(
    new THREE.PlaneGeometry(30, 30).rotateX(-Math.PI / 2),
    new THREE.MeshStandardMaterial({ color: 0x15171c, roughness: 0.25, metalness: 0.6 }),
  );
  floor.receiveShadow = true;
  scene.add(floor);

  // Neon tubes at increasing emissive intensity (in units of SDR white).
  const tubes = new THREE.Group();
  const hues = [0.0, 0.08, 0.15, 0.33, 0.52, 0.62, 0.78, 0.92];
  const intensities = [0.5, 1, 2, 4, 8, 16, 32, 64];
  intensities.forEach((intensity, i) => {
    const color = new THREE.Color().setHSL(hues[i], 0.9, 0.55);
    const tube = new THREE.Mesh(
      new THREE.CapsuleGeometry(0.07, 1.6, 6, 16),
      new THREE.MeshStandardMaterial({ color: 0x000000, emissive: color, emissiveIntensity: intensity }),
    );
    tube.position.set((i - 3.5) * 0.62, 1.1, -0.6);
    tubes.add(tube);
    const light = new THREE.PointLight(color, Math.min(intensity, 16) * 0.6, 3, 2);
    light.position.set(tube.position.x, 0.5, -0.3);
    tubes.add(light);
    ctx.label(tube, `${intensity}×`, [0, 0.95, 0]);
  });
  scene.add(tubes);

  // A white orb (sun-like, draggable) and a few shapes lit by it.
  const orb = new THREE.Mesh(
    new THREE.SphereGeometry(0.28, 48, 24),
    new THREE.MeshStandardMaterial({ color: 0x000000, emissive: 0xfff3e0, emissiveIntensity: 24 }),
  );
  orb.position.set(0, 2.6, -1.4);
  scene.add(orb);
  ctx.bounds.set(new THREE.Vector3(-3.5, 0.4, -3), new THREE.Vector3(3.5, 4, 2.5));
  ctx.draggable('light', orb);
  const orbLight = new THREE.PointLight(0xfff3e0, 12, 8, 2);
  orb.add(orbLight);
  const shapes = new THREE.Group();
  const shapeMaterial = standard(0xb8b2a6, { flatShading: false, roughness: 0.35, metalness: 0.2 });
  [new THREE.TorusKnotGeometry(0.28, 0.09, 128, 16), new THREE.IcosahedronGeometry(0.34, 0), new THREE.TorusGeometry(0.3, 0.1, 24, 64)]
    .forEach((geometry, i) => {
      const mesh = new THREE.Mesh(geometry, shapeMaterial);
      mesh.position.set((i - 1) * 1.3, 0.45, 1.0);
      mesh.castShadow = true;
      shapes.add(mesh);
    });
  scene.add(shapes);

  // ---------------------------------------------------------------- GUI
  // The same output controls as the Output folder (one set of settings, shown in both).
  const settings = output.settings;
  const params = { split: true, patches: true, animate: true };
  const gui = ctx.gui;
  const removeOutputControls = output.addControls(gui);
  gui.add(params, 'split').name('SDR | HDR split').onChange(() => updateSplit());
  gui.add(params, 'patches').name('calibration image').onChange(() => updateCalibration());
  gui.add(params, 'animate');

  // ---------------------------------------------------------------- split view
  // The line lets clicks through (the light behind it stays draggable); only its grip moves it.
  let splitX = 0.5;
  const divider = document.createElement('div');
  divider.className = 'split-divider';
  divider.innerHTML = '<div class="split-line"></div><div class="split-grip" title="Drag to move the SDR | HDR split">'
    + '<span>SDR</span><b>⇔</b><span>HDR</span></div>';
  ctx.overlay.appendChild(divider);
  const grip = divider.querySelector('.split-grip');
  grip.addEventListener('pointerdown', (event) => {
    grip.setPointerCapture(event.pointerId);
    const move = (e) => { splitX = Math.min(0.98, Math.max(0.02, e.clientX / window.innerWidth)); updateSplit(); };
    const up = () => { grip.removeEventListener('pointermove', move); grip.removeEventListener('pointerup', up); };
    grip.addEventListener('pointermove', move);
    grip.addEventListener('pointerup', up);
  });

  // On an SDR display both halves look the same: say why (over the calibration image).
  const notice = document.createElement('div');
  notice.className = 'notice';
  notice.style.cssText = 'margin-top:3px;max-width:256px';
  function updateNotice() {
    const problems = [];
    if (!output.path.hdrCanvas) problems.push('this browser gives no HDR canvas (needs WebGPU with an rgba16float, extended canvas)');
    else if (!displayIsHDR()) problems.push('the display reports SDR');
    if (output.path.hdrCanvas && !output.hdrActive) problems.push('the tone map is SDR (set tone map to hdr to force the HDR curve)');
    notice.hidden = problems.length === 0;
    calibrationHint.hidden = !notice.hidden;
    notice.textContent = `An HDR display is needed to see the difference: ${problems.join('; ')}. `
      + 'Until then both halves look alike and the patches above paper white clip to white.';
  }
  function updateSplit() {
    divider.style.display = params.split ? 'flex' : 'none';
    divider.style.left = `${splitX * 100}%`;
    output.setSplit(params.split ? splitX : null);
  }
  updateSplit();

  // ---------------------------------------------------------------- calibration image
  // ikpd.hdr.calibrationImage in 'extended' encoding (1.0 = paper white) is drawn
  // by the output stage over this box, bypassing the tone map.
  const calibrationPanel = ctx.panel('Calibration', 'bottom-left');
  // The GPU draws under the DOM: the panel and the box stay see-through.
  Object.assign(calibrationPanel.style, { background: 'none', border: 'none', backdropFilter: 'none', textShadow: '0 1px 2px #000' });
  const calibrationBox = document.createElement('div');
  calibrationBox.style.cssText = 'position:relative;width:256px;height:128px;outline:1px solid rgba(255,255,255,.15)';
  calibrationPanel.appendChild(calibrationBox);
  const calibrationHint = document.createElement('div');
  calibrationHint.style.cssText = 'margin-top:3px;max-width:256px';
  calibrationHint.textContent = 'Set paper white until its patch looks like white paper; raise peak until the inner square just disappears.';
  calibrationPanel.appendChild(calibrationHint);
  calibrationPanel.appendChild(notice); // replaces the hint while there is no HDR display
  let lastImage = null;
  function updateCalibration() {
    calibrationPanel.style.display = params.patches ? '' : 'none';
    if (!params.patches) return output.setCalibration(null);
    const image = lastImage = ikpd.hdr.calibrationImage({ width: 256, height: 128, paperWhite: settings.paperWhite, peak: settings.peak, encoding: 'extended' });
    output.setCalibration({ image, element: calibrationBox });
    calibrationBox.replaceChildren(...image.patches.filter((p) => !p.name.startsWith('ramp') || p.name === 'ramp0' || p.name === 'ramp5').map((p) => {
      const label = document.createElement('span');
      label.style.cssText = `position:absolute;left:${(p.x / image.width) * 100}%;top:${((p.y + p.height) / image.height) * 100}%;font-size:9px;color:#bbb;white-space:nowrap`;
      label.textContent = p.name === 'peakBackground' || p.name === 'peak' ? '' : `${Math.round(p.nits)}`;
      return label;
    }));
  }

  // ---------------------------------------------------------------- tone curve plot
  const plotPanel = ctx.panel('Tone curves (1.0 = paper white)', 'bottom-right');
  const plot = new uPlot({
    width: 300,
    height: 170,
    scales: { x: { time: false }, y: { range: (u, min, max) => [0, Math.max(1.1, max * 1.05)] } },
    axes: [
      { stroke: '#9a9aa6', grid: { stroke: 'rgba(255,255,255,.07)' }, label: 'scene value', labelSize: 14, size: 30 },
      { stroke: '#9a9aa6', grid: { stroke: 'rgba(255,255,255,.07)' }, size: 34 },
    ],
    series: [
      {},
      { label: 'SDR (left of split)', stroke: '#8fc7ff', width: 1.5 },
      { label: 'HDR (right of split)', stroke: '#ffd27a', width: 2, dash: [4, 3] },
    ],
    legend: { show: true, live: false },
    cursor: { show: false },
  }, [[0], [0], [0]], plotPanel);
  // Exactly what each side of the split applies (see Output): ikpd's output transform at the
  // output's current settings, and at peak = paper white; x is the scene value before exposure.
  let curves = null;
  function updatePlot() {
    const tone = output.toneSettings();
    const sample = (peak) => ikpd.hdr.sampleToneCurves({ paperWhite: tone.paperWhite, peak, count: 128, maxInput: 8 });
    const hdr = sample(tone.peak);
    const sdr = sample(tone.paperWhite);
    const input = Array.from(hdr.input, (x) => x / settings.exposure);
    curves = { input, sdr: Array.from(sdr.output), hdr: Array.from(hdr.output) };
    plot.setData([input, curves.sdr, curves.hdr]);
  }

  const previousOnChange = output.onChange;
  output.onChange = () => { previousOnChange?.(); updatePlot(); updateCalibration(); updateNotice(); };
  output.apply();

  return {
    update(dt, time) {
      if (!params.animate) return;
      shapes.children.forEach((m, i) => { m.rotation.y = time * (0.3 + i * 0.1); m.rotation.x = time * 0.2; });
    },
    state() {
      // Patch centers in CSS px, for pixel readback tests.
      const patches = {};
      if (params.patches && lastImage) {
        const box = calibrationBox.getBoundingClientRect();
        for (const p of lastImage.patches) {
          patches[p.name] = { x: box.left + ((p.x + p.width / 2) / lastImage.width) * box.width, y: box.top + ((p.y + p.height / 2) / lastImage.height) * box.height, value: p.value, nits: p.nits };
        }
      }
      const tube = tubes.children.at(-2).getWorldPosition(new THREE.Vector3()).project(camera);
      const rect = ctx.canvas.getBoundingClientRect();
      const brightestTube = { x: rect.left + ((tube.x + 1) / 2) * rect.width, y: rect.top + ((1 - tube.y) / 2) * rect.height };
      const light = ctx.screenPosition('light');
      return { brightestTube, light, peakRatio: output.peakRatio, hdrActive: output.hdrActive, split: params.split ? splitX : null, patches, curves, notice: notice.hidden ? null : notice.textContent };
    },
    dispose() {
      removeOutputControls();
      output.onChange = previousOnChange;
      output.setCalibration(null);
      plot.destroy();
    },
  };
}
