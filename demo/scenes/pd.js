// PD interpolation playground (docs/pd/pd.md): several scalar controllers follow one
// target side by side, each a ball on its own rail and a trace in the plots
// (value and velocity over time, with the target). Presets show what the
// teaching material shows: a spring alone oscillates; under-, critically and
// over-damped responses; a velocity cap looks robotic; explicit Euler depends
// on the frame rate and diverges at a large step, the exact integrator does
// neither; a moving target lags, and feed-forward or an integral term (PID)
// remove the lag; smoothing an IK offset instead of the raw angle, and the
// blend-out to exactly zero. The controllers run at a simulated update rate
// (10–240 Hz), stepped with a fixed step inside the render loop.
import * as THREE from 'three/webgpu';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { PRESETS, PRESET_NAMES, animation, animationRate, sweep } from '../lib/pdPresets.js';
import { colors, handle, setupStage, standard } from '../lib/stage.js';

const HISTORY_SECONDS = 8;
const RANGE = 2.5; // values (and the target) live in [-RANGE, RANGE]: x on the rails
const STEP_PERIOD = 3; // 'steps' motion: the target jumps every STEP_PERIOD seconds
const STEP_VALUES = [1.5, -1, 0.5, -1.5, 1];
const LANE_COLORS = ['#7bd88f', '#ffb347', '#3cb4ff', '#c7a0ff'];
const MAX_LANES = LANE_COLORS.length;
const DIVERGED = 1e3; // |value| beyond this: the lane stops and says it diverged

export async function create(ctx) {
  const { scene, camera, controls, ikpd } = ctx;
  setupStage(ctx, { size: 10 });
  // The rails left of the plots (bottom right) and below the GUI.
  camera.position.set(0.55, 4.1, 6.9);
  controls.target.set(0.55, -0.95, -0.4);
  ctx.bounds.set(new THREE.Vector3(-RANGE, 0.25, 1.5), new THREE.Vector3(RANGE, 0.25, 1.5));

  const params = {
    preset: 'under / critical / over-damped',
    motion: 'steps',
    settleTime: 1,
    rate: 60,
    ikOn: true,
    ikCycle: true,
    paused: false,
  };

  // ---------------------------------------------------------------- 3D: a rail per lane
  const target = ctx.draggable('target', handle(colors.target, 0.09), { showY: false, showZ: false });
  target.position.set(0, 0.25, 1.5);
  scene.add(target);
  const targetRail = new THREE.Mesh(new THREE.BoxGeometry(2 * RANGE, 0.02, 0.02), standard(0x6a3a34));
  targetRail.position.set(0, 0.2, 1.5);
  scene.add(targetRail);
  // Where each lane should be (the target, or in the offset preset the IK-on/off ideal): a thin bar across the rails.
  const goalBar = new THREE.Mesh(
    new THREE.BoxGeometry(0.03, 0.01, MAX_LANES * 0.7 + 0.5),
    new THREE.MeshBasicMaterial({ color: colors.target, transparent: true, opacity: 0.6 }),
  );
  goalBar.position.set(0, 0.02, 1.5 - (MAX_LANES * 0.7 + 0.5) / 2);
  scene.add(goalBar);
  const railGeometry = new THREE.BoxGeometry(2 * RANGE, 0.04, 0.04);
  const visuals = LANE_COLORS.map((color, i) => {
    const z = 0.8 - i * 0.7;
    const rail = new THREE.Mesh(railGeometry, standard(0x3a3e47));
    rail.position.set(0, 0.1, z);
    rail.receiveShadow = true;
    const ball = new THREE.Mesh(
      new THREE.SphereGeometry(0.13, 24, 16),
      new THREE.MeshStandardMaterial({ color, roughness: 0.35, emissive: color, emissiveIntensity: 0.25 }),
    );
    ball.castShadow = true;
    ball.position.set(0, 0.25, z);
    // An arrow on the ball that turns with the velocity: it tips forward while the ball moves.
    const arrow = new THREE.Mesh(new THREE.ConeGeometry(0.05, 0.22, 12).translate(0, 0.22, 0), standard(0xe8e8ea));
    ball.add(arrow);
    scene.add(rail, ball);
    const label = ctx.label(ball, '', [0, 0.22, 0]);
    return { rail, ball, arrow, label, z };
  });

  // ---------------------------------------------------------------- lanes (controllers)
  let lanes = [];
  let simTime = 0;
  let stepIndex = 0; // steps taken since the reset: simTime = stepIndex / rate while the rate holds
  let accumulator = 0;
  let dragging = false;
  let history = null;
  let plots = [];

  const preset = () => PRESETS[params.preset];
  /** The gains every lane shares (critically damped at the settle time), for the naive lane and the readout. */
  const gains = () => ikpd.gainsFromSettleTime(params.settleTime, 'critical');

  function buildLanes() {
    for (const lane of lanes) lane.pd?.dispose();
    lanes = preset().lanes.map((spec, i) => {
      const lane = { ...spec, color: LANE_COLORS[i], value: 0, velocity: 0, diverged: false, pd: null };
      if (spec.kind !== 'naive') lane.pd = new ikpd.PD({ settleTime: params.settleTime, ...spec.options, value: 0 });
      return lane;
    });
    visuals.forEach((v, i) => {
      const lane = lanes[i];
      v.rail.visible = v.ball.visible = Boolean(lane);
      if (lane) {
        v.label.textContent = lane.label;
        v.label.style.color = lane.color;
      }
    });
    simTime = 0;
    stepIndex = 0;
    accumulator = 0;
    // A moving target starts where its motion starts now, not at the next update.
    if (params.motion !== 'manual') target.position.x = THREE.MathUtils.clamp(targetAt(1 / params.rate), -RANGE, RANGE);
    buildPlots();
    place();
  }

  // ---------------------------------------------------------------- plots
  const plotPanel = ctx.panel('', 'bottom-right');
  const plotTitle = document.createElement('h3');
  const valueBox = document.createElement('div');
  const velocityTitle = document.createElement('h3');
  velocityTitle.textContent = 'Velocity (units/s)';
  velocityTitle.style.marginTop = '4px';
  const velocityBox = document.createElement('div');
  plotPanel.append(plotTitle, valueBox, velocityTitle, velocityBox);
  // What the lanes are and what the preset shows: left, so the plots and the GUI fit on the right of small windows.
  const infoPanel = ctx.panel('', 'bottom-left');
  infoPanel.style.maxWidth = '400px';
  const legend = document.createElement('div');
  legend.style.marginBottom = '4px';
  const status = document.createElement('div');
  infoPanel.append(legend, status);
  const axis = { stroke: '#9a9aa6', grid: { stroke: 'rgba(255,255,255,.07)' }, size: 24 };
  const yAxis = { ...axis, size: 40 };

  function buildPlots() {
    for (const plot of plots) plot.destroy();
    const withAnimation = Boolean(preset().animation);
    history = { t: [], goal: [], animation: [], values: lanes.map(() => []), velocities: lanes.map(() => []) };
    plotTitle.textContent = withAnimation ? 'Angle over time' : 'Value over time';
    const key = (color, text, dash) => `<span style="color:${color}">${dash ? '╌╌' : '━━'} ${text}</span>`;
    legend.innerHTML = [
      key('#ff8a6b', withAnimation ? 'target (IK on: the IK angle; off: the animation)' : 'target', true),
      ...(withAnimation ? [key('#9a9aa6', 'animation', true)] : []),
      ...lanes.map((lane) => key(lane.color, lane.label)),
    ].join(' · ');
    const laneSeries = lanes.map((lane) => ({ label: lane.label, stroke: lane.color, width: 1.75 }));
    const goalSeries = { label: 'target', stroke: '#ff8a6b', width: 1.25, dash: [4, 3] };
    const animationSeries = { label: 'animation', stroke: '#9a9aa6', width: 1, dash: [2, 3] };
    const valueSeries = [{ label: 't (s)' }, goalSeries, ...(withAnimation ? [animationSeries] : []), ...laneSeries];
    plots = [
      new uPlot({
        width: 340, height: 120,
        scales: { x: { time: false }, y: { range: [-RANGE, RANGE] } },
        axes: [axis, yAxis], series: valueSeries,
        legend: { show: false }, cursor: { show: false },
      }, [[], ...valueSeries.slice(1).map(() => [])], valueBox),
      new uPlot({
        width: 340, height: 62,
        scales: { x: { time: false }, y: { range: (u, min, max) => { const m = Math.min(Math.max(2, Math.abs(min), Math.abs(max)) * 1.1, 40); return [-m, m]; } } },
        axes: [axis, yAxis], series: [{ label: 't (s)' }, ...laneSeries],
        legend: { show: false }, cursor: { show: false },
      }, [[], ...lanes.map(() => [])], velocityBox),
    ];
  }

  function updatePlots() {
    const h = history;
    const values = preset().animation ? [h.goal, h.animation, ...h.values] : [h.goal, ...h.values];
    plots[0].setData([h.t, ...values]);
    plots[1].setData([h.t, ...h.velocities]);
  }

  // ---------------------------------------------------------------- GUI
  const gui = ctx.gui;
  gui.add(params, 'preset', PRESET_NAMES).onChange(applyPreset);
  const motionControl = gui.add(params, 'motion', ['steps', 'sweep', 'manual']).name('target motion').onChange(() => resetRun(true));
  gui.add(params, 'settleTime', 0.1, 2, 0.01).name('settle time (s)').onChange(() => resetRun(true));
  gui.add(params, 'rate', 10, 240, 1).name('update rate (Hz)').onChange(() => resetRun());
  ctx.enableWhen(gui.add(params, 'ikOn').name('IK on').listen(), () => Boolean(preset().animation) && !params.ikCycle);
  ctx.enableWhen(gui.add(params, 'ikCycle').name('IK on/off every 3 s'), () => Boolean(preset().animation));
  gui.add(params, 'paused').name('pause');
  gui.add({ restart: () => resetRun(true) }, 'restart').name('restart from 0');

  function applyPreset() {
    const p = preset();
    params.settleTime = p.settleTime;
    params.rate = p.rate;
    params.motion = p.motion;
    params.ikOn = true;
    gui.controllersRecursive().forEach((c) => c.updateDisplay());
    ctx.refreshControls();
    resetRun(true);
  }

  /**
   * Back to time 0: every lane at rest at 0 (the rate and gains as they are now). The
   * values at t = 1 s of earlier rates are kept for comparison unless `forget`.
   */
  function resetRun(forget = false) {
    if (forget) atOneSecond = [];
    buildLanes();
  }

  // Grabbing the target: it stays where it is put ('manual').
  ctx.transform.addEventListener('dragging-changed', (event) => {
    dragging = event.value;
    if (event.value && params.motion !== 'manual') {
      params.motion = 'manual';
      motionControl.updateDisplay();
    }
  });

  // ---------------------------------------------------------------- simulation
  /**
   * Where the target is for the step ending at tEnd. 'steps' jumps at the start of a step
   * (what ikpd's targetMotion 'hold' assumes), counted in whole steps so that a jump lands
   * on the same instant at every integer rate.
   */
  function targetAt(tEnd) {
    if (params.motion === 'steps') {
      // The segment from integer step counts: the same instant at every integer rate.
      const segment = Math.floor((stepIndex + 1e-6) / (params.rate * STEP_PERIOD));
      return STEP_VALUES[segment % STEP_VALUES.length];
    }
    if (params.motion === 'sweep') return sweep(tEnd);
    return target.position.x;
  }

  /** IK on (the offset preset): toggled every 3 s from the step count, or by the checkbox. */
  function ikOnAt() {
    if (!params.ikCycle) return params.ikOn;
    return Math.floor((stepIndex + 1e-6) / (params.rate * 3)) % 2 === 0;
  }

  function step(h) {
    const tEnd = (stepIndex + 1) / params.rate;
    const goalTarget = targetAt(tEnd);
    const withAnimation = Boolean(preset().animation);
    const anim = animation(tEnd);
    const ikOn = withAnimation ? ikOnAt() : true;
    if (withAnimation) params.ikOn = ikOn;
    const goal = withAnimation && !ikOn ? anim : goalTarget;
    const { kp, kd } = gains();
    for (const lane of lanes) {
      if (lane.diverged) continue;
      if (lane.kind === 'naive') {
        // The naive method, written here (ikpd does not offer it): forward Euler, the new
        // position from the old velocity. Stable only while the step is small enough.
        const force = kp * (goal - lane.value) - kd * lane.velocity;
        lane.value += h * lane.velocity;
        lane.velocity += h * force;
      } else if (lane.kind === 'offset') {
        lane.value = lane.pd.trackOffset(h, anim, ikOn ? goalTarget : null);
        lane.velocity = lane.pd.velocity + animationRate(tEnd); // the output's: offset + animation
      } else {
        lane.value = lane.pd.update(h, goal);
        lane.velocity = lane.pd.velocity;
      }
      if (!(Math.abs(lane.value) < DIVERGED)) lane.diverged = true;
    }
    stepIndex++;
    simTime = tEnd;
    if (params.motion !== 'manual' && !dragging) target.position.x = THREE.MathUtils.clamp(goalTarget, -RANGE, RANGE);
    history.t.push(simTime);
    history.goal.push(goal);
    history.animation.push(anim);
    lanes.forEach((lane, i) => {
      history.values[i].push(lane.diverged ? null : lane.value);
      history.velocities[i].push(lane.diverged ? null : lane.velocity);
    });
    lastGoal = goal;
    if (stepIndex === params.rate) remember();
  }
  let lastGoal = 0;

  // Each lane's value at t = 1 s, for the last few update rates tried (same preset and settings);
  // shown where explicit Euler runs beside the exact integrator.
  let atOneSecond = [];
  function remember() {
    atOneSecond = atOneSecond.filter((entry) => entry.rate !== params.rate).slice(-2);
    atOneSecond.push({ rate: params.rate, values: lanes.map((lane) => (lane.diverged ? null : lane.value)) });
  }

  function place() {
    goalBar.position.x = THREE.MathUtils.clamp(lastGoal, -RANGE, RANGE);
    lanes.forEach((lane, i) => {
      const v = visuals[i];
      const x = lane.diverged ? Math.sign(lane.value || 1) * RANGE : lane.value;
      v.ball.position.x = THREE.MathUtils.clamp(x, -RANGE - 0.2, RANGE + 0.2);
      v.arrow.rotation.z = -Math.atan(lane.velocity / 4) * (lane.diverged ? 0 : 1);
      v.ball.material.emissiveIntensity = lane.diverged ? 1.5 : 0.25;
      v.label.textContent = lane.diverged ? `${lane.label}: diverged` : lane.label;
    });
  }

  function statusHTML() {
    const h = 1 / params.rate;
    const { kp, kd } = gains();
    const lines = [`${params.rate} Hz (step ${(h * 1000).toFixed(1)} ms) · t ${simTime.toFixed(2)} s · kp ${kp.toFixed(1)}, kd ${kd.toFixed(1)} (critical at ${params.settleTime.toFixed(2)} s)`];
    if (lanes.some((l) => l.kind === 'naive')) {
      // Forward Euler with critical gains: both eigenvalues are 1 − ω·h, stable while h < 2/ω.
      const naiveLimit = 2 / Math.sqrt(kp);
      const semi = ikpd.checkStability({ kp, kd, dt: h, integrator: 'explicit' });
      const pill = (ok) => `<span class="status-pill ${ok ? 'ok' : 'no'}">${ok ? 'stable' : 'unstable'}</span>`;
      lines.push(`at this step: exact ${pill(true)} (any step) · explicit Euler ${pill(h < naiveLimit)} (steps under ${(naiveLimit * 1000).toFixed(0)} ms)`
        + ` · ikpd's 'explicit' (semi-implicit Euler) ${semi.stable ? pill(true) : `${pill(false)}, so ikpd refuses the step (RangeError)`} (under ${(semi.maxStableDt * 1000).toFixed(0)} ms)`);
    }
    const offset = lanes.find((l) => l.kind === 'offset');
    if (offset) {
      const phase = offset.pd.blendPhase;
      lines.push(`IK ${params.ikOn ? 'on' : 'off'} · offset ${offset.pd.value.toFixed(4)}${phase === 'done' ? ' (exactly 0)' : ''} · blend-out: ${phase}`);
    }
    if (atOneSecond.length && lanes.some((l) => l.kind === 'naive')) {
      const show = (v) => (v === null ? 'diverged' : v.toFixed(4));
      lines.push(`value at t = 1 s: ${lanes.map((lane, i) => `<span style="color:${lane.color}">${lane.label}</span> ${atOneSecond.map((e) => `${show(e.values[i])} @${e.rate} Hz`).join(', ')}`).join(' · ')}`);
    }
    lines.push(`<span style="color:#c8c8d0">${preset().note}</span>`);
    return lines.join('<br>');
  }

  applyPreset();

  return {
    update(dt) {
      if (!params.paused) {
        const interval = 1 / params.rate;
        accumulator = Math.min(accumulator + dt, 0.25);
        while (accumulator >= interval - 1e-9) {
          accumulator -= interval;
          step(interval);
        }
        while (history.t.length && history.t[0] < simTime - HISTORY_SECONDS) {
          history.t.shift();
          history.goal.shift();
          history.animation.shift();
          for (const list of [...history.values, ...history.velocities]) list.shift();
        }
      }
      place();
      updatePlots();
      status.innerHTML = statusHTML();
    },
    reset() {
      resetRun();
    },
    state() {
      return {
        preset: params.preset,
        rate: params.rate,
        motion: params.motion,
        simTime,
        target: target.position.toArray(),
        goal: lastGoal,
        ikOn: params.ikOn,
        lanes: lanes.map((lane) => ({
          label: lane.label,
          kind: lane.kind,
          value: lane.value,
          velocity: lane.velocity,
          diverged: lane.diverged,
          blendPhase: lane.pd?.blendPhase ?? null,
        })),
      };
    },
    dispose() {
      for (const plot of plots) plot.destroy();
      for (const lane of lanes) lane.pd?.dispose();
      lanes = [];
    },
  };
}
