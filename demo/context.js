// Everything a scene module gets: its THREE.Scene, camera and orbit controls,
// a lil-gui folder, an overlay element for panels/labels, and draggable
// handles (TransformControls). Disposing the context tears all of it down.
import * as THREE from 'three/webgpu';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { TransformControls } from 'three/addons/controls/TransformControls.js';

const _v = new THREE.Vector3();

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
    this.disposers = [];
    this.instance = null;
    this.selected = null;

    this.transform = new TransformControls(this.camera, this.canvas);
    this.transform.setSize(0.75);
    this.transform.addEventListener('dragging-changed', (event) => { this.controls.enabled = !event.value; });
    this.transformHelper = this.transform.getHelper();
    this.scene.add(this.transformHelper);

    // Click a handle to attach the gizmo to it.
    this.raycaster = new THREE.Raycaster();
    this.pointer = new THREE.Vector2();
    this.pointerDown = null;
    this.onPointerDown = (event) => { this.pointerDown = [event.clientX, event.clientY]; };
    this.onPointerUp = (event) => {
      if (!this.pointerDown || this.transform.dragging) return;
      const [x, y] = this.pointerDown;
      this.pointerDown = null;
      if (Math.hypot(event.clientX - x, event.clientY - y) > 4) return;
      const handles = Object.values(this.draggables).filter((d) => d.object.visible).map((d) => d.pick);
      this.setPointer(event);
      this.raycaster.setFromCamera(this.pointer, this.camera);
      const hit = this.raycaster.intersectObjects(handles, false)[0];
      if (hit) this.selectDraggable(hit.object.userData.draggableName);
    };
    this.canvas.addEventListener('pointerdown', this.onPointerDown);
    this.canvas.addEventListener('pointerup', this.onPointerUp);
  }

  /** Normalized device coordinates of a pointer event, in this.pointer. */
  setPointer(event) {
    const rect = this.canvas.getBoundingClientRect();
    this.pointer.set(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
    return this.pointer;
  }

  /**
   * Makes `object` draggable with the gizmo. Options: `mode` ('translate' |
   * 'rotate'), `showX/Y/Z`, `space` ('world' | 'local'), `onChange`. The
   * first draggable is selected.
   */
  draggable(name, object, { mode = 'translate', showX = true, showY = true, showZ = true, space = 'world', onChange } = {}) {
    const pick = object.isMesh ? object : object.getObjectByProperty('isMesh', true) ?? object;
    pick.userData.draggableName = name;
    this.draggables[name] = { object, pick, mode, showX, showY, showZ, space, onChange };
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

  /** Moves a draggable as a drag would (test hook and presets). */
  moveDraggable(name, position) {
    const d = this.draggables[name];
    if (!d) return false;
    d.object.position.fromArray(position);
    d.onChange?.();
    return true;
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

  /** Registers cleanup work for when the scene is switched away. */
  onDispose(fn) {
    this.disposers.push(fn);
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
    for (const fn of this.disposers.splice(0)) fn();
    this.instance?.dispose?.();
    this.canvas.removeEventListener('pointerdown', this.onPointerDown);
    this.canvas.removeEventListener('pointerup', this.onPointerUp);
    this.transform.detach();
    this.transform.dispose();
    this.controls.dispose();
    this.gui.destroy();
    this.overlay.remove();
    this.output.setSplit(null);
    this.scene.traverse((object) => {
      object.geometry?.dispose();
      const materials = Array.isArray(object.material) ? object.material : [object.material];
      for (const m of materials) m?.dispose();
    });
  }
}
