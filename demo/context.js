// Everything a scene module gets: its THREE.Scene, camera and orbit controls,
// a lil-gui folder, an overlay element for panels/labels, and draggable
// handles: grab a handle to drag it in the camera's view plane, or use the
// TransformControls gizmo for one axis; handles stay inside the scene's
// bounds and "reset" puts them back. Disposing the context tears all of it down.
import * as THREE from 'three/webgpu';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { TransformControls } from 'three/addons/controls/TransformControls.js';

const _v = new THREE.Vector3();
const _n = new THREE.Vector3();

/** Default handle bounds: the stage around the origin. Scenes set ctx.bounds to their own. */
const DEFAULT_BOUNDS = new THREE.Box3(new THREE.Vector3(-6, 0, -6), new THREE.Vector3(6, 5, 6));

export class SceneContext {
  constructor({ renderer, output, gui, overlay, ikpd, ikpdThree, entry }) {
    this.renderer = renderer;
    this.output = output;
    this.ikpd = ikpd;
    this.ikpdThree = ikpdThree;
    this.entry = entry;
    this.canvas = renderer.domElement;
    this.scene = new THREE.Scene();
    this.camera = new THREE.PerspectiveCamera(45, 1, 0.05, 200);
    this.camera.position.set(3, 2.2, 4);
    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.enableDamping = true;
    this.controls.target.set(0, 0.8, 0);
    this.gui = gui.addFolder(entry.title);
    this.overlay = document.createElement('div');
    overlay.appendChild(this.overlay);
    this.draggables = {};
    this.labels = [];
    this.instance = null;
    this.selected = null;
    this.bounds = DEFAULT_BOUNDS.clone();
    this.conditions = []; // [controller, predicate]: greyed out while the predicate is false
    this.homes = null;

    this.transform = new TransformControls(this.camera, this.canvas);
    this.transform.setSize(0.75);
    this.transform.addEventListener('dragging-changed', (event) => { this.controls.enabled = !event.value; });
    this.transform.addEventListener('objectChange', () => this.clampDraggable(this.selected));
    this.transformHelper = this.transform.getHelper();
    this.scene.add(this.transformHelper);

    // Click a handle to attach the gizmo to it.
    this.raycaster = new THREE.Raycaster();
    this.pointer = new THREE.Vector2();
    this.pointerDown = null;
    this.viewDrag = null; // { name, plane, offset, pointerId } while a handle is dragged in the view plane
    this.dragPlane = new THREE.Plane();
    this.dragHit = new THREE.Vector3();
    this.onPointerDown = (event) => { this.pointerDown = [event.clientX, event.clientY]; };
    // Capture phase: runs before the gizmo's and the orbit controls' own listeners on the canvas.
    this.onPointerDownCapture = (event) => this.startViewDrag(event);
    this.onPointerMove = (event) => this.moveViewDrag(event);
    this.onPointerEnd = (event) => this.endViewDrag(event);
    this.onPointerUp = (event) => {
      if (!this.pointerDown || this.transform.dragging) return;
      const [x, y] = this.pointerDown;
      this.pointerDown = null;
      if (Math.hypot(event.clientX - x, event.clientY - y) > 4) return;
      const name = this.pickDraggable(event);
      if (name) this.selectDraggable(name);
    };
    this.canvas.addEventListener('pointerdown', this.onPointerDownCapture, { capture: true });
    this.canvas.addEventListener('pointerdown', this.onPointerDown);
    this.canvas.addEventListener('pointermove', this.onPointerMove);
    this.canvas.addEventListener('pointerup', this.onPointerUp);
    this.canvas.addEventListener('pointerup', this.onPointerEnd);
    this.canvas.addEventListener('pointercancel', this.onPointerEnd);
  }

  /** Name of the visible handle under a pointer event, or null. */
  pickDraggable(event) {
    const handles = Object.values(this.draggables).filter((d) => d.object.visible).map((d) => d.pick);
    this.setPointer(event);
    this.raycaster.setFromCamera(this.pointer, this.camera);
    return this.raycaster.intersectObjects(handles, false)[0]?.object.userData.draggableName ?? null;
  }

  /** Grabbing a translate handle itself drags it in the plane facing the camera (the gizmo's arrows still move one axis). */
  startViewDrag(event) {
    if (event.button !== 0 || this.viewDrag) return;
    const name = this.pickDraggable(event);
    const d = name && this.draggables[name];
    if (!d || d.mode !== 'translate') return;
    this.selectDraggable(name);
    d.object.getWorldPosition(_v);
    this.dragPlane.setFromNormalAndCoplanarPoint(this.camera.getWorldDirection(_n), _v);
    if (!this.raycaster.ray.intersectPlane(this.dragPlane, this.dragHit)) return;
    this.viewDrag = { name, offset: _v.clone().sub(this.dragHit), pointerId: event.pointerId };
    this.transform.enabled = false; // the gizmo's centre must not grab an arrow
    // Scenes (and the orbit controls) hear about this drag as about a gizmo drag.
    this.transform.dispatchEvent({ type: 'dragging-changed', value: true });
    this.canvas.setPointerCapture?.(event.pointerId);
  }

  moveViewDrag(event) {
    const drag = this.viewDrag;
    if (!drag || event.pointerId !== drag.pointerId) return;
    this.setPointer(event);
    this.raycaster.setFromCamera(this.pointer, this.camera);
    if (!this.raycaster.ray.intersectPlane(this.dragPlane, this.dragHit)) return;
    const d = this.draggables[drag.name];
    const p = this.dragHit.add(drag.offset);
    // Axes the handle does not move along (showX/Y/Z false) stay where they are.
    if (d.showX) d.object.position.x = p.x;
    if (d.showY) d.object.position.y = p.y;
    if (d.showZ) d.object.position.z = p.z;
    this.clampDraggable(drag.name);
  }

  endViewDrag(event) {
    if (!this.viewDrag || event.pointerId !== this.viewDrag.pointerId) return;
    this.viewDrag = null;
    this.transform.enabled = true;
    this.transform.dispatchEvent({ type: 'dragging-changed', value: false });
  }

  /** Normalized device coordinates of a pointer event, in this.pointer. */
  setPointer(event) {
    const rect = this.canvas.getBoundingClientRect();
    this.pointer.set(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
    return this.pointer;
  }

  /**
   * Makes `object` (a child of the scene) draggable. Options: `mode`
   * ('translate' | 'rotate'), `showX/Y/Z` (axes it moves along), `space`
   * ('world' | 'local'), `bounds` (THREE.Box3 it stays in; default
   * ctx.bounds), `onChange`. The first draggable is selected.
   */
  draggable(name, object, { mode = 'translate', showX = true, showY = true, showZ = true, space = 'world', bounds = null, onChange } = {}) {
    const pick = object.isMesh ? object : object.getObjectByProperty('isMesh', true) ?? object;
    pick.userData.draggableName = name;
    this.draggables[name] = { object, pick, mode, showX, showY, showZ, space, bounds, onChange };
    if (!this.selected) this.selectDraggable(name);
    return object;
  }

  selectDraggable(name) {
    const d = this.draggables[name];
    if (!d) return;
    this.selected = name;
    this.transform.attach(d.object);
    this.transform.setMode(d.mode);
    this.transform.setSpace(d.space);
    this.transform.showX = d.showX;
    this.transform.showY = d.showY;
    this.transform.showZ = d.showZ;
  }

  /** Moves a draggable as a drag would (test hook and presets), within its bounds. */
  moveDraggable(name, position) {
    const d = this.draggables[name];
    if (!d) return false;
    d.object.position.fromArray(position);
    this.clampDraggable(name);
    return true;
  }

  /** Keeps a draggable inside its bounds and tells its owner it moved. */
  clampDraggable(name) {
    const d = this.draggables[name];
    if (!d) return;
    d.object.position.clamp((d.bounds ?? this.bounds).min, (d.bounds ?? this.bounds).max);
    d.onChange?.();
  }

  /** Remembers where the handles and the camera start (called once the scene is built). */
  saveHomes() {
    this.homes = {
      camera: this.camera.position.clone(),
      target: this.controls.target.clone(),
      handles: Object.fromEntries(Object.entries(this.draggables).map(([name, d]) => [name, [d.object.position.clone(), d.object.quaternion.clone()]])),
    };
  }

  /** Puts every handle and the camera back where the scene started. */
  resetHomes() {
    if (!this.homes) return;
    for (const [name, [position, quaternion]] of Object.entries(this.homes.handles)) {
      const d = this.draggables[name];
      d.object.position.copy(position);
      d.object.quaternion.copy(quaternion);
      d.onChange?.();
    }
    this.camera.position.copy(this.homes.camera);
    this.controls.target.copy(this.homes.target);
    this.controls.update();
    this.instance?.reset?.();
  }

  /** Greys out `controller` whenever `predicate()` is false (re-checked after every GUI change). */
  enableWhen(controller, predicate) {
    this.conditions.push([controller, predicate]);
    controller.enable(predicate());
    return controller;
  }

  /** Re-checks every enableWhen condition. */
  refreshControls() {
    for (const [controller, predicate] of this.conditions) controller.enable(predicate());
  }

  /** Client-space pixel position of a draggable (for pointer tests). */
  screenPosition(name) {
    const d = this.draggables[name];
    if (!d) return null;
    d.object.getWorldPosition(_v).project(this.camera);
    const rect = this.canvas.getBoundingClientRect();
    return { x: rect.left + ((_v.x + 1) / 2) * rect.width, y: rect.top + ((1 - _v.y) / 2) * rect.height };
  }

  /** A DOM label that follows `object` (offset in world units). Returns the element. */
  label(object, text, offset = [0, 0, 0]) {
    const el = document.createElement('div');
    el.className = 'label3d';
    el.textContent = text;
    this.overlay.appendChild(el);
    this.labels.push({ el, object, offset: new THREE.Vector3(...offset) });
    return el;
  }

  /** A floating panel in the overlay (`position`: CSS class like 'bottom-right'). */
  panel(title, position = 'bottom-right') {
    const el = document.createElement('div');
    el.className = `panel ${position}`;
    if (title) {
      const h = document.createElement('h3');
      h.textContent = title;
      el.appendChild(h);
    }
    this.overlay.appendChild(el);
    return el;
  }

  resize(width, height) {
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.instance?.resize?.(width, height);
  }

  beforeRender() {
    this.controls.update();
  }

  render() {
    this.renderer.render(this.scene, this.camera);
    if (this.labels.length) this.updateLabels();
  }

  updateLabels() {
    const rect = this.canvas.getBoundingClientRect();
    for (const { el, object, offset } of this.labels) {
      object.getWorldPosition(_v).add(offset).project(this.camera);
      const visible = object.visible && _v.z < 1;
      el.style.display = visible ? '' : 'none';
      if (visible) el.style.transform = `translate(${((_v.x + 1) / 2) * rect.width}px, ${((1 - _v.y) / 2) * rect.height}px) translate(-50%, -140%)`;
    }
  }

  dispose() {
    this.instance?.dispose?.(); // the scene's own cleanup: the one way a scene frees what it made
    this.canvas.removeEventListener('pointerdown', this.onPointerDownCapture, { capture: true });
    this.canvas.removeEventListener('pointerdown', this.onPointerDown);
    this.canvas.removeEventListener('pointermove', this.onPointerMove);
    this.canvas.removeEventListener('pointerup', this.onPointerUp);
    this.canvas.removeEventListener('pointerup', this.onPointerEnd);
    this.canvas.removeEventListener('pointercancel', this.onPointerEnd);
    this.transform.detach();
    this.transform.dispose();
    this.controls.dispose();
    this.gui.destroy();
    this.overlay.remove();
    this.output.setSplit(null);
    this.scene.traverse((object) => {
      object.shadow?.dispose(); // a light's shadow map is a render target of its own
      object.geometry?.dispose();
      const materials = Array.isArray(object.material) ? object.material : [object.material];
      for (const m of materials) m?.dispose();
    });
  }
}
