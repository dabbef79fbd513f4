// The few three.js classes tests/types/usage.ts touches (the package has no
// bundled typings and @types/three is not a dependency): enough structure for
// the ikpd typings to be checked against.
declare module 'three' {
  export class Vector3 {
    constructor(x?: number, y?: number, z?: number);
    x: number;
    y: number;
    z: number;
    readonly isVector3: true;
  }
  export class Quaternion {
    constructor(x?: number, y?: number, z?: number, w?: number);
    x: number;
    y: number;
    z: number;
    w: number;
    readonly isQuaternion: true;
  }
  export class Object3D {
    readonly isObject3D: true;
    position: Vector3;
    quaternion: Quaternion;
    add(...objects: Object3D[]): this;
  }
  export class Bone extends Object3D {
    readonly isBone: true;
  }
  export class Skeleton {
    bones: Bone[];
  }
  export class AnimationMixer {
    constructor(root: Object3D);
    clipAction(clip: AnimationClip): AnimationAction;
    getRoot(): Object3D;
    update(deltaTime: number): this;
  }
  export class AnimationClip {
    constructor(name?: string, duration?: number, tracks?: unknown[]);
  }
  export class AnimationAction {
    time: number;
    play(): this;
    getMixer(): AnimationMixer;
  }
  export class Plane {
    constructor(normal?: Vector3, constant?: number);
    normal: Vector3;
    constant: number;
    readonly isPlane: true;
  }
}
declare module 'three/webgpu' {
  export class WebGPURenderer {}
}
